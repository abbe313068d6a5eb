// What the federation domain contributes (docs/federation.md): the organizers' routes (the
// switch and the followers of a grove or organization) and the admins' instance blocklist (always
// mounted: a block may be set before federation is turned on), the ActivityPub and WebFinger
// routes (served by Fedify, mounted only when FEDERATION is on), the job that drains the
// federation queue, the observer that queues an event's changes for its host's followers, and the
// one that tells them when the host itself is gone.
import { defineManifest } from '../manifest.js';
import { observeHostEnd } from './actor-end.js';
import { createFederationDeliveryJob } from './delivery-job.js';
import { observeEventChange } from './event-changes.js';
import { federationRouter, groveFederationRouter, organizationFederationRouter } from './router.js';
import { documentFederation, mountFederation } from './routes.js';

export const federationManifest = defineManifest({
  domain: 'federation',
  namespaces: { federation: federationRouter },
  addsTo: { groves: groveFederationRouter, organizations: organizationFederationRouter },
  rawRoutes: [
    { mount: (app, deps, contextFor) => mountFederation(app, deps, contextFor), document: documentFederation },
  ],
  jobs: [createFederationDeliveryJob],
  eventChangeObservers: [observeEventChange],
  hostEndObservers: [observeHostEnd],
});
