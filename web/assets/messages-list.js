// The conversation list, kept current over the socket of live-socket.js (loaded first): any
// messaging event (a message sent or deleted, a conversation started, changed, left or read on
// another device) reloads the list from this web server (`?part=list`: the list alone), so its
// markup has one source, the server's. Events come in bursts (a group's messages), so reloads are spaced out.
(() => {
  const dataBlock = document.getElementById('page-data');
  if (!dataBlock) return;
  const data = JSON.parse(dataBlock.textContent || '{}');
  const status = document.getElementById('live-status');
  if (!status || !data.live || typeof io !== 'function' || typeof openLiveSocket !== 'function') return;

  let pending = null;
  let connectedBefore = false;
  const reload = async () => {
    pending = null;
    try {
      const response = await fetch(`${window.location.pathname}?part=list`, {
        credentials: 'same-origin',
        headers: { accept: 'text/html' },
      });
      // Signed out meanwhile (the login page) or a failure: keep what is shown; the socket says why.
      if (!response.ok || response.redirected) return;
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const fresh = page.getElementById('conversations');
      const current = document.getElementById('conversations');
      if (fresh && current) current.replaceWith(fresh);
    } catch {
      // Offline for a moment: the next event (or a reconnection) reloads again.
    }
  };
  const reloadSoon = () => {
    if (!pending) pending = setTimeout(reload, 300);
  };

  const { socket } = openLiveSocket({
    socketUrl: data.socketUrl,
    ticketUrl: data.ticketUrl,
    status,
    text: data.text,
    // After a reconnection: what happened while the socket was away.
    onReady: () => {
      if (connectedBefore) reloadSoon();
      connectedBefore = true;
    },
  });
  for (const event of [
    'message.created',
    'message.deleted',
    'conversation.created',
    'conversation.changed',
    'conversation.left',
    'conversation.read',
    // The server's link was interrupted and events may have been missed.
    'resync',
  ])
    socket.on(event, reloadSoon);
})();
