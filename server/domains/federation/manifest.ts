// What the federation domain contributes (docs/federation.md): the ActivityPub and WebFinger
// routes (served by Fedify, mounted only when FEDERATION is on), the admins' instance blocklist
// (always mounted: a block may be set before federation is turned on), the job that drains the
// federation queue, and the observer that queues an event's changes for its host's followers.
import { defineManifest } from '../manifest.js';
import { createFederationDeliveryJob } from './delivery-job.js';
import { observeEventChange } from './event-changes.js';
import { federationRouter } from './router.js';
import { documentFederation, mountFederation } from './routes.js';

export const federationManifest = defineManifest({
  domain: 'federation',
  namespaces: { federation: federationRouter },
  rawRoutes: [
    { mount: (app, deps, contextFor) => mountFederation(app, deps, contextFor), document: documentFederation },
  ],
  jobs: [createFederationDeliveryJob],
  eventChangeObservers: [observeEventChange],
});
