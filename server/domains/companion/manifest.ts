// What the companion domain contributes: the companion chat, and its streamed form (a raw
// route: server-sent events).
import { defineManifest } from '../manifest.js';
import { documentCompanionChat, mountCompanionChat } from './chat-route.js';
import { companionRouter } from './router.js';

export const companionManifest = defineManifest({
  domain: 'companion',
  namespaces: { companion: companionRouter },
  rawRoutes: [
    { mount: (app, _deps, contextFor) => mountCompanionChat(app, contextFor), document: documentCompanionChat },
  ],
});
