// The federation domain's routes: the organizers' (logic in organizers.ts), the same four under a
// grove and under an organization (added to the groves and organizations namespaces, as their
// paths say), and the admins' instance blocklist (blocklist-router.ts), the federation namespace.
import { router } from '../../trpc/init.js';
import { memberProcedure } from '../../trpc/procedures.js';
import { okOutput } from '../../shared/schemas.js';
import { getFederation, type HostKind, listFollowers, removeFollower, setFederation } from './organizers.js';
import * as schemas from './schemas.js';
import { blocklistProcedures } from './blocklist-router.js';

const tags = ['federation'];
const who: Record<HostKind, string> = {
  grove: 'Organizers of the grove only (site admins too only when they organize it); others get 403.',
  organization: 'Admins of the organization and site admins; others get 403.',
};
const base = (kind: HostKind) =>
  kind === 'grove' ? '/api/groves/{id}/federation' : '/api/organizations/{id}/federation';
const noun = (kind: HostKind) => (kind === 'grove' ? 'grove' : 'organization');

function routesFor(kind: HostKind) {
  return {
    settings: memberProcedure
      .meta({
        auth: 'organizer',
        openapi: {
          method: 'GET',
          path: base(kind),
          tags,
          summary: `Whether the ${noun(kind)} federates (${kind === 'grove' ? 'organizers' : 'admins'})`,
          description: `The organizers' choice (\`enabled\`, null for the default), the default, whether this server federates at all, the effect (\`federates\`), the fediverse handle and actor URL while it federates, and how many remote followers it has. Answers while the server does not federate too (\`serverFederates: false\`). ${who[kind]}`,
        },
      })
      .input(schemas.hostIdInput())
      .output(schemas.federationOutput)
      .query(({ ctx, input }) => getFederation(ctx, kind, input)),

    setSettings: memberProcedure
      .meta({
        auth: 'organizer',
        errors: kind === 'grove' ? ['conflict', 'not_implemented'] : ['not_implemented'],
        openapi: {
          method: 'PUT',
          path: base(kind),
          tags,
          summary: `Turn federation of the ${noun(kind)} on or off (${kind === 'grove' ? 'organizers' : 'admins'})`,
          description: `\`enabled\`: true, false, or null for the default (on for organizations and \`open\` groves, off for \`approval\` groves).${kind === 'grove' ? ' An `invite` grove never federates: true answers 409.' : ''} Off keeps the followers: nothing is sent to them and the actor answers 404 until it is on again. 501 while this server does not federate (FEDERATION). ${who[kind]}`,
        },
      })
      .input(schemas.setFederationInput)
      .output(schemas.federationOutput)
      .mutation(({ ctx, input }) => setFederation(ctx, kind, input)),

    followers: memberProcedure
      .meta({
        auth: 'organizer',
        openapi: {
          method: 'GET',
          path: `${base(kind)}/followers`,
          tags,
          summary: `Remote followers of the ${noun(kind)} (${kind === 'grove' ? 'organizers' : 'admins'})`,
          description: `Newest first: each follower's actor URI, server and when it followed (nothing more is kept). Never shown to anyone else, nor to the fediverse (the followers collection gives the count only). ${who[kind]}`,
        },
      })
      .input(schemas.followersInput())
      .output(schemas.followerListOutput)
      .query(({ ctx, input }) => listFollowers(ctx, kind, input)),

    removeFollower: memberProcedure
      .meta({
        auth: 'organizer',
        openapi: {
          method: 'DELETE',
          path: `${base(kind)}/followers/{followerId}`,
          tags,
          summary: `Remove a remote follower (${kind === 'grove' ? 'organizers' : 'admins'})`,
          description: `The follower gets nothing more, and its server is sent a Reject of its Follow (Mastodon then drops the follow) while the ${noun(kind)} federates. It may follow again while the ${noun(kind)} federates. 404 when it is not a follower of this ${noun(kind)}. ${who[kind]}`,
        },
      })
      .input(schemas.removeFollowerInput())
      .output(okOutput)
      .mutation(({ ctx, input }) => removeFollower(ctx, kind, input)),
  };
}

const grove = routesFor('grove');
const organization = routesFor('organization');

/** Under /api/groves/{id}/federation…, so in the groves namespace (naming rule in composition.ts). */
export const groveFederationRouter = router({
  federation: grove.settings,
  setFederation: grove.setSettings,
  federationFollowers: grove.followers,
  removeFederationFollower: grove.removeFollower,
});

/** Under /api/organizations/{id}/federation…, so in the organizations namespace. */
export const organizationFederationRouter = router({
  federation: organization.settings,
  setFederation: organization.setSettings,
  federationFollowers: organization.followers,
  removeFederationFollower: organization.removeFollower,
});

/** Under /api/admin/federation: the federation namespace. */
export const federationRouter = router(blocklistProcedures);
