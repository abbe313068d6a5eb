// The live socket shared by the messages pages. The page never holds the API token: for each
// (re)connection it asks its own web server for a single-use ticket (POST, same origin) and
// connects to the API's `/messages` namespace with { auth: { ticket } } (web/pages/messages.tsx
// says why). openLiveSocket keeps the page's status line current (connecting, connected,
// reconnecting, ended, off) and returns the socket for the page's own events; `onReady` runs
// each time the server says the socket is ready (after every reconnection too). `text` holds the
// status lines in the viewer's language (the page's data block: liveTexts() in web/pages/messages.tsx).
window.openLiveSocket = ({ socketUrl, ticketUrl, status, text, onReady }) => {
  const setStatus = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  /** A fresh ticket from the web server: { ticket }, { limited: true } or null when the session is over. */
  const fetchTicket = async () => {
    const response = await fetch(ticketUrl, {
      method: 'POST',
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    const type = response.headers.get('content-type') || '';
    if (response.status === 429) return { limited: true };
    if (!response.ok || !type.includes('application/json')) return null;
    return { ticket: (await response.json()).ticket };
  };

  let ended = false;
  const socket = io(`${socketUrl}/messages`, {
    // Called before every (re)connection: each handshake gets its own single-use ticket.
    auth: (send) => {
      fetchTicket().then(
        (answer) => {
          if (!answer) {
            ended = true;
            setStatus('ended', text.ended);
          } else if (answer.limited) {
            ended = true;
            setStatus('off', text.paused);
          }
          send({ ticket: answer?.ticket || '' });
        },
        () => send({ ticket: '' }),
      );
    },
    transports: ['websocket', 'polling'],
    autoConnect: false,
  });

  socket.on('ready', () => {
    setStatus('connected', text.connected);
    onReady?.();
  });
  socket.on('session:ended', () => {
    ended = true;
    setStatus('ended', text.ended);
  });
  socket.on('disconnect', (reason) => {
    if (!ended && reason !== 'io client disconnect') setStatus('reconnecting', text.reconnecting);
  });
  // A refused handshake is not retried by socket.io: try again (with a new ticket) a little later.
  let retries = 0;
  socket.on('connect_error', (error) => {
    if (ended || !error.data) return; // transport errors: socket.io retries by itself
    retries += 1;
    if (retries > 5) return setStatus('off', text.unavailable);
    setStatus('reconnecting', text.reconnecting);
    setTimeout(() => socket.connect(), Math.min(30_000, 1000 * 2 ** retries));
  });
  socket.on('connect', () => {
    retries = 0;
  });
  setStatus('connecting', text.connecting);
  socket.connect();
  return { socket, setStatus };
};
