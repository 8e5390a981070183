// args: -u 2 -d 3s
// Licence: ISC, its package.json states; its text: wild_licences/ridzeal+k6-poc.LICENSE.
// From github.com/ridzeal/k6-poc, ws-test.js@ad6b70037ed7: the team's script unchanged but for its
// one URL (ws://echo.websocket.org); -u/-d shorten 10 VUs for 10s.
import ws from "k6/ws"; 

export let options = {
  vus: 10, // 1 user looping for 1 minute
  duration: '10s',

  thresholds: {
    iteration_duration: ['p(99)<4000'], // 99% of requests must complete below 1.5s
  }
};

export default function() { 
  let url = "ws://127.0.0.1:18481/";  
  let params = { "tags": { "my_tag": "hello" } };   
    
  let res = ws.connect(url, params, function(socket) {  
      socket.on('open', function open() {   
          console.log('connected'); 
    
          socket.setInterval(function timeout() {   
            socket.ping();  
            console.log("Pinging every 1sec (setInterval test)");   
          }, 1000); 
      });   
    
      socket.on('ping', function () {   
          console.log("PING!"); 
      });   
    
      socket.on('pong', function () {   
          console.log("PONG!"); 
      });   
    
      socket.on('close', function() {   
          console.log('disconnected');  
      });   
    
      socket.setTimeout(function () {   
          console.log('2 seconds passed, closing the socket');  
          socket.close();   
      }, 2000);
    }); 
}
