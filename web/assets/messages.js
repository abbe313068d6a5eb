// Live messages on a conversation page, over the socket of live-socket.js (loaded first).
// Sending posts the same form the page has without JavaScript, as fetch, so the page does not
// reload; new messages from anyone arrive through the socket.
(() => {
  const dataBlock = document.getElementById('page-data');
  if (!dataBlock) return;
  const data = JSON.parse(dataBlock.textContent || '{}');
  const list = document.getElementById('messages');
  const status = document.getElementById('live-status');
  const form = document.getElementById('send-form');
  if (!list || !status || !data.live || typeof io !== 'function' || typeof openLiveSocket !== 'function') return;

  // The same format as the server's (formatTime in web/pages/messages.tsx): the viewer's language and zone.
  const clock = new Intl.DateTimeFormat(data.clock.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: data.clock.timeZone,
  });
  const formatTime = (iso) => clock.format(new Date(iso));

  /** Adds a message at the bottom unless it is already there (the sender gets it twice). */
  const addMessage = (message) => {
    if (message.conversationId !== data.conversationId) return;
    if (list.querySelector(`[data-message-id="${CSS.escape(message._id)}"]`)) return;
    const own = message.sender._id === data.viewerId;
    const item = document.createElement('li');
    item.className = own ? 'message own' : 'message';
    item.dataset.messageId = message._id;
    const meta = document.createElement('p');
    meta.className = 'message-meta';
    const who = document.createElement('strong');
    who.textContent = `@${message.sender.handle}`;
    const when = document.createElement('time');
    when.className = 'muted';
    when.dateTime = message.createdAt;
    when.textContent = formatTime(message.createdAt);
    meta.append(who, ' ', when);
    const body = document.createElement('p');
    body.className = 'message-body';
    body.textContent = message.body;
    item.append(meta, body);
    if (own) {
      const remove = document.createElement('form');
      remove.method = 'post';
      remove.action = `/app/messages/${data.conversationId}/messages/${message._id}/delete`;
      remove.className = 'inline';
      const button = document.createElement('button');
      button.type = 'submit';
      button.className = 'link';
      button.textContent = data.text.deleteForEveryone;
      remove.append(button);
      item.append(remove);
    }
    list.append(item);
    document.getElementById('no-messages')?.remove();
  };

  const markRead = () => {
    if (document.visibilityState !== 'visible') return;
    fetch(data.readUrl, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(() => document.getElementById('read-form')?.remove())
      .catch(() => {});
  };

  /**
   * Catching up after a gap (the server's `resync`, or a reconnection): the page's own newest
   * messages, fetched as HTML, replace the list; what arrives live meanwhile is added again
   * after it. The form and what is typed in it are left alone.
   */
  let arrivedWhileCatchingUp = null;
  const catchUp = async () => {
    if (arrivedWhileCatchingUp) return;
    arrivedWhileCatchingUp = [];
    try {
      const response = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
      // Signed out meanwhile (the login page) or a failure: keep what is shown.
      if (!response.ok || response.redirected) return;
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('messages');
      if (fresh) list.replaceChildren(...[...fresh.children].map((node) => document.importNode(node, true)));
      if (list.children.length > 0) document.getElementById('no-messages')?.remove();
    } catch {
      // Offline for a moment: the next reconnection catches up again.
    } finally {
      const arrived = arrivedWhileCatchingUp;
      arrivedWhileCatchingUp = null;
      for (const message of arrived) addMessage(message);
    }
  };

  let readyBefore = false;
  const { socket, setStatus } = openLiveSocket({
    socketUrl: data.socketUrl,
    ticketUrl: data.ticketUrl,
    status,
    text: data.text,
    onReady: () => {
      if (readyBefore) catchUp();
      readyBefore = true;
      markRead();
    },
  });
  socket.on('resync', catchUp);
  socket.on('message.created', ({ message }) => {
    arrivedWhileCatchingUp?.push(message);
    addMessage(message);
    if (message.sender._id !== data.viewerId) markRead();
  });
  socket.on('message.deleted', ({ conversationId, messageId }) => {
    if (conversationId !== data.conversationId) return;
    list.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`)?.remove();
  });
  socket.on('conversation.left', ({ conversationId }) => {
    if (conversationId === data.conversationId) setStatus('off', data.text.left);
  });
  document.addEventListener('visibilitychange', markRead);

  if (!form) return;
  const textarea = form.querySelector('textarea');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    form.querySelector('.form-error')?.remove();
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams(new FormData(form)),
        credentials: 'same-origin',
      });
      const type = response.headers.get('content-type') || '';
      if (!type.includes('application/json')) {
        // Not for us (signed out: the login page): let the browser follow the plain form.
        form.submit();
        return;
      }
      const answer = await response.json();
      if (response.ok) {
        addMessage(answer.message);
        textarea.value = '';
      } else {
        const error = document.createElement('p');
        error.className = 'form-error';
        error.setAttribute('role', 'alert');
        error.textContent = answer.error?.message || data.text.sendFailed;
        form.prepend(error);
      }
    } catch {
      const error = document.createElement('p');
      error.className = 'form-error';
      error.setAttribute('role', 'alert');
      error.textContent = data.text.sendOffline;
      form.prepend(error);
    } finally {
      button.disabled = false;
      textarea.focus();
    }
  });
})();
