// args: -u 1 -i 3
// k6's documentation's SOAP example, in its idiom: an XML envelope POSTed with its SOAPAction header and
// the answer checked by substring; an XML answer read with k6/html's parseHTML.
import http from "k6/http";
import { check } from "k6";
import { parseHTML } from "k6/html";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

const soapReqBody = `
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body><hs:GetSupportedCurrencies xmlns:hs="http://www.holidaywebservice.com/HolidayService_v2/">
    <hs:countryCode>UnitedStates</hs:countryCode>
  </hs:GetSupportedCurrencies></soap:Body>
</soap:Envelope>`;

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.post(`${BASE}/post`, soapReqBody, {
    headers: { "Content-Type": "text/xml", SOAPAction: "http://www.holidaywebservice.com/GetCurrencies" },
  });
  check(res, {
    "black friday is present": (r) => r.body.indexOf("UnitedStates") !== -1,
    "action header": (r) => r.json("headers.Soapaction") === "http://www.holidaywebservice.com/GetCurrencies",
    "content type": (r) => r.json("headers.Content-Type") === "text/xml",
  });
  const xml = http.get(`${BASE}/xml`);
  check(xml, {
    "xml title": (r) => parseHTML(r.body).find("slide title").text() === "Wake up",
    "xml attr": (r) => parseHTML(r.body).find("slideshow").attr("title") === "Sample",
  });
}
