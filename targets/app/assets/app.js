// Marks the current page's link so the sample site has a little JavaScript to transfer and compress.
document.querySelectorAll("a").forEach((a) => {
  if (a.getAttribute("href") === location.pathname) a.style.fontWeight = "bold";
});
