// Run before the first paint (a classic script at the top of <head>, not a module:
// modules run only after the page has been painted). With English chosen, the page
// stays hidden (style.css) until i18n.js has put the English words in: on a slow link
// the Vietnamese of index.html showed first. Shown anyway after 10 s, in whatever
// words it has, should i18n-en.js never come.
try {
  if (localStorage.getItem("hearts-lang") === "en") {
    document.documentElement.classList.add("lang-wait");
    setTimeout(function () { document.documentElement.classList.remove("lang-wait"); }, 10000);
  }
} catch (e) { /* no storage (private mode): the page is Vietnamese */ }
