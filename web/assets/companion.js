// Streamed companion replies. The chat form works without JavaScript (the page shows the stored
// reply once it is complete); here it posts to the web server's same-origin stream endpoint,
// which relays the API's server-sent events (web/pages/companion.tsx), and the reply appears
// piece by piece. The page never sees the API token.
(() => {
  const form = document.getElementById('chat-form');
  const transcript = document.getElementById('transcript');
  const status = document.getElementById('chat-status');
  if (!form || !transcript || !status || !window.ReadableStream || !window.TextDecoder) return;
  // The texts in the viewer's language (scriptData() in web/pages/companion.tsx).
  const words = JSON.parse(document.getElementById('page-data')?.textContent || '{}').text;
  if (!words) return;
  const RETRIEVAL_PREFIX = 'No language model is configured on this server';
  const textarea = form.querySelector('textarea');
  const button = form.querySelector('button[type="submit"]');

  const showError = (message) => {
    form.querySelector('.form-error')?.remove();
    const error = document.createElement('p');
    error.className = 'form-error';
    error.setAttribute('role', 'alert');
    error.textContent = message;
    form.prepend(error);
  };

  /** One transcript entry; returns its body element. */
  const addEntry = (role, text) => {
    const item = document.createElement('li');
    item.className = role === 'user' ? 'message own' : 'message';
    const meta = document.createElement('p');
    meta.className = 'message-meta';
    const who = document.createElement('strong');
    who.textContent = role === 'user' ? words.you : words.companion;
    meta.append(who);
    const body = document.createElement('p');
    body.className = 'message-body';
    body.textContent = text;
    item.append(meta, body);
    transcript.append(item);
    return { item, body };
  };

  const labelRetrieval = (entry) => {
    if (entry.labelled || !entry.body.textContent.startsWith(RETRIEVAL_PREFIX)) return;
    entry.labelled = true;
    const label = document.createElement('p');
    const span = document.createElement('span');
    span.className = 'source-label';
    span.textContent = words.retrievalLabel;
    label.append(span);
    entry.body.before(label);
  };

  const addSources = (entry, sources) => {
    if (!sources?.length) return;
    const line = document.createElement('p');
    line.className = 'sources';
    line.append(`${words.sources} `);
    sources.forEach((source, index) => {
      if (index) line.append(', ');
      const link = document.createElement('a');
      link.href = `/app/${source.type === 'guide' ? 'guides' : 'media'}/${encodeURIComponent(source.slug)}`;
      link.textContent = source.title;
      line.append(link);
    });
    entry.item.append(line);
  };

  /** Parses server-sent events from a fetch body, calling onEvent(name, data) for each. */
  const readEvents = async (body, onEvent) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.search(/\r?\n\r?\n/);
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        let event = 'message';
        const data = [];
        for (const line of block.split(/\r?\n/)) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length) onEvent(event, JSON.parse(data.join('\n')));
        end = buffer.search(/\r?\n\r?\n/);
      }
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const message = textarea.value.trim();
    if (!message) return;
    const hidden = form.querySelector('input[name="conversationId"]');
    form.querySelector('.form-error')?.remove();
    button.disabled = true;
    status.textContent = words.answering;
    let entry = null;
    let userEntry = null;
    let finished = false;
    /** Nothing of a failed turn is stored: take it off the page and give the text back. */
    const undo = (why) => {
      entry?.item.remove();
      userEntry?.item.remove();
      textarea.value = message;
      showError(why);
    };
    try {
      const response = await fetch('/app/companion/stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ message, conversationId: hidden ? hidden.value : undefined }),
        credentials: 'same-origin',
      });
      const type = response.headers.get('content-type') || '';
      if (!response.ok || !type.startsWith('text/event-stream')) {
        if (response.status === 401) {
          window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname)}`);
          return;
        }
        const answer = type.includes('application/json') ? await response.json() : null;
        showError(answer?.error?.message || words.tryAgain);
        return;
      }
      userEntry = addEntry('user', message);
      textarea.value = '';
      entry = addEntry('assistant', '');
      await readEvents(response.body, (name, data) => {
        if (name === 'meta') {
          if (!hidden) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = 'conversationId';
            input.value = data.conversationId;
            form.prepend(input);
          }
        } else if (name === 'delta') {
          entry.body.textContent += data.text;
          labelRetrieval(entry);
        } else if (name === 'done') {
          finished = true;
          addSources(entry, data.sources);
          entry.item.dataset.state = 'done';
          // The address of the stored conversation, for a reload or a bookmark.
          if (window.location.pathname === '/app/companion')
            window.history.replaceState(null, '', `/app/companion/${data.conversationId}`);
        } else if (name === 'error') {
          finished = true;
          undo(data.message);
        }
      });
      if (!finished) undo(words.brokeOff);
    } catch {
      undo(words.unreachable);
    } finally {
      button.disabled = false;
      status.textContent = '';
    }
  });
})();
