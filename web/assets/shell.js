// On every page: registers the service worker (offline copies of pages, web/assets/sw.js) and,
// when the member signs out, tells it to forget every cache at once (the server's
// Clear-Site-Data header does the same; this covers browsers that ignore it).
(() => {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // No worker (private mode, an old browser): the site works the same, online only.
  });
  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (new URL(form.action, location.href).pathname !== '/logout') return;
    navigator.serviceWorker.controller?.postMessage({ type: 'sign-out' });
  });
})();
