// What the realtime domain contributes: the socket ticket route (the socket.io server itself
// is started by server/main.ts on the HTTP server).
import { defineManifest } from '../manifest.js';
import { realtimeRouter } from './router.js';

export const realtimeManifest = defineManifest({ domain: 'realtime', namespaces: { realtime: realtimeRouter } });
