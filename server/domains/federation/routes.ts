// The federation's HTTP surface, served by Fedify: WebFinger and everything under /ap/. Mounted
// only when federation is on; off, these paths answer 404 like any unknown path (there is
// nothing there, rather than a feature to configure: 501 would tell a scanner what to look for).
// Fedify negotiates content: a client that does not ask for ActivityPub JSON (a browser) gets 406.
import type { Context as HonoContext, Env, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { AppError } from '../../errors.js';
import { errorResponse } from '../../http/rest.js';
import type { AppDeps } from '../../service/context.js';
import type { Context } from '../../trpc/context.js';
import { SHARED_INBOX_PATH } from './inbox.js';
import { guardInbox } from './inbox-guard.js';
import { federationRuntime } from './runtime.js';

const notFound = () => errorResponse(new AppError('not_found', 'Nothing federates here.'));
const notAcceptable = () =>
  Response.json(
    { error: { code: 'not_acceptable', message: 'Ask for application/activity+json.' } },
    { status: 406, headers: { Vary: 'Accept' } },
  );

export function mountFederation<E extends Env>(
  app: Hono<E>,
  deps: AppDeps,
  contextFor: (c: HonoContext<E>) => Context,
): void {
  const runtime = federationRuntime(deps);
  if (!runtime) return;
  const serve = (request: Request) =>
    runtime.federation.fetch(request, {
      contextData: runtime.data,
      onNotFound: notFound,
      onNotAcceptable: notAcceptable,
    });
  app.get('/.well-known/webfinger', (c) => serve(c.req.raw));
  // The same body cap as the API: an activity is a few kilobytes.
  app.use(
    '/ap/*',
    bodyLimit({
      maxSize: deps.config.MAX_BODY_BYTES,
      onError: () =>
        errorResponse(
          new AppError('payload_too_large', `The body may be at most ${deps.config.MAX_BODY_BYTES} bytes.`),
        ),
    }),
  );
  const inbox = async (c: HonoContext<E>) => (await guardInbox(c, deps, contextFor)) ?? readActivity(c.req.raw);
  // Fedify throws on an activity it cannot read (a JSON-LD context that cannot be fetched or
  // expanded, found by fuzzing): the sender's fault, so 400, not 500.
  const readActivity = async (request: Request) => {
    try {
      return await serve(request);
    } catch (error) {
      deps.log.warn({ err: error }, 'federation: unreadable activity refused');
      return errorResponse(new AppError('validation_failed', 'The activity could not be read.'));
    }
  };
  app.post(SHARED_INBOX_PATH, inbox);
  app.post('/ap/actors/:identifier/inbox', inbox);
  app.all('/ap/*', (c) => serve(c.req.raw));
}

const envelope = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});
const activityJson = (description: string) => ({
  description,
  content: { 'application/activity+json': { schema: { type: 'object' } } },
});
const identifier = {
  name: 'identifier',
  in: 'path',
  required: true,
  description: "The grove's or organization's `_id`.",
  schema: { type: 'string', format: 'uuid' },
};
const common = {
  tags: ['federation'],
  security: [],
  'x-auth': 'public',
};
const off = '404 for every path while federation is off (FEDERATION, docs/federation.md).';

/** The federation paths in the OpenAPI document (ActivityPub and WebFinger: not /api, not JSON envelopes). */
export function documentFederation(doc: OpenAPIObject) {
  doc.paths ??= {};
  const get = (operationId: string, summary: string, description: string, ok: string, parameters: object[]) => ({
    get: {
      ...common,
      operationId: `federation-${operationId}`,
      summary,
      description: `${description} ${off}`,
      parameters,
      responses: {
        '200': activityJson(ok),
        '404': envelope('Not federated, unknown, or federation is off.'),
        '406': envelope('The client did not ask for ActivityPub JSON (`Accept: application/activity+json`).'),
      },
    } as never,
  });
  doc.paths['/.well-known/webfinger'] = {
    get: {
      ...common,
      operationId: 'federation-webfinger',
      summary: 'WebFinger (RFC 7033)',
      description: `Finds a federated grove or organization by \`acct:<slug>@<host>\` (a grove wins a slug both use). ${off}`,
      parameters: [{ name: 'resource', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'JRD.', content: { 'application/jrd+json': { schema: { type: 'object' } } } },
        '400': { description: 'No or malformed `resource`.' },
        '404': envelope('No federated actor of that name, or federation is off.'),
      },
    } as never,
  };
  doc.paths['/ap/actors/{identifier}'] = get(
    'actor',
    'A grove or organization as an ActivityPub Group',
    'Its name, description, page, inbox, outbox, followers collection and public keys (RSA for HTTP Signatures, Ed25519 for Object Integrity Proofs). Never its members or organizers.',
    'The Group actor.',
    [identifier],
  );
  doc.paths['/ap/actors/{identifier}/outbox'] = get(
    'outbox',
    "A grove's or organization's outbox",
    'Its public, scheduled events as Create(Event), newest first, 20 a page (`?cursor=`). Grove-only and friends-only events never appear.',
    'OrderedCollection (or a page of it).',
    [identifier, { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } }],
  );
  doc.paths['/ap/actors/{identifier}/followers'] = get(
    'followers',
    "A grove's or organization's followers",
    'The number of remote followers only: who follows is not listed.',
    'OrderedCollection with totalItems and no items.',
    [identifier],
  );
  doc.paths['/ap/events/{id}'] = get(
    'event',
    'A public event as an ActivityPub Event',
    'Name, description, start and end, the public venue (never the meeting point), type, page and cover image, for a public scheduled event of a federated host.',
    'The Event object.',
    [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: "The event's `_id`.",
        schema: { type: 'string', format: 'uuid' },
      },
    ],
  );
  const inbox = (operationId: string, summary: string, parameters: object[]) => ({
    post: {
      ...common,
      operationId: `federation-${operationId}`,
      summary,
      description: `Takes Follow and Undo(Follow) for a federated grove or organization (accepted at once); anything else is dropped unread. The request must carry a valid HTTP Signature of the activity's actor, made within the last hour; an instance on the blocklist (its subdomains included) gets 202 and nothing is done. Rate limited per remote instance (the host of the signature's keyId, else of the body's actor: RATE_LIMIT_FEDERATION_INBOX_PER_HOST per 5 minutes) and per address (twice that), before the signature is checked: 429 \`rate_limited\` with Retry-After, nothing processed. ${off}`,
      parameters,
      requestBody: {
        required: true,
        content: { 'application/activity+json': { schema: { type: 'object' } } },
      },
      responses: {
        '202': { description: 'Accepted for processing.' },
        '400': envelope('An activity that cannot be read (not JSON, or JSON-LD that cannot be expanded).'),
        '401': { description: 'Unsigned, badly signed, or stale request.' },
        '404': envelope('Not federated, unknown, or federation is off.'),
        '413': envelope('The body is larger than MAX_BODY_BYTES.'),
        '429': {
          ...envelope('Over the per-instance or per-address limit; nothing was processed.'),
          headers: { 'Retry-After': { description: 'Seconds until the window ends.', schema: { type: 'integer' } } },
        },
      },
    } as never,
  });
  doc.paths['/ap/actors/{identifier}/inbox'] = inbox('inbox', "A grove's or organization's inbox", [identifier]);
  doc.paths['/ap/inbox'] = inbox('sharedInbox', 'The shared inbox', []);
}
