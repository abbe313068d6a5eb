// The organizers' federation routes: a grove's or organization's switch and its followers.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';

const EXAMPLE_ID = '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6';

export const hostIdInput = () => z.object({ id: z.uuid() });

export const setFederationInput = z
  .object({
    id: z.uuid(),
    enabled: z.boolean().nullable().meta({
      description:
        'true: federate; false: do not; null: the default (on for organizations and `open` groves, off for `approval` groves). An `invite` grove never federates: true answers 409.',
    }),
  })
  .strict()
  .meta({ examples: [{ id: EXAMPLE_ID, enabled: false }] });

export const federationOutput = z
  .object({
    enabled: z
      .boolean()
      .nullable()
      .meta({ description: "The organizers' choice; null while they have not made one (the default applies)." }),
    default: z.boolean().meta({ description: 'Whether it federates when `enabled` is null.' }),
    allowed: z.boolean().meta({ description: 'False for an `invite` grove, which never federates.' }),
    serverFederates: z
      .boolean()
      .meta({ description: 'Whether this server federates at all (FEDERATION, docs/federation.md).' }),
    federates: z
      .boolean()
      .meta({ description: 'Whether it is followable and its public events are sent now: all of the above.' }),
    handle: z.string().nullable().meta({
      description:
        'The fediverse handle (`@slug@host`) while it federates; null otherwise, and for an organization whose slug a grove also uses (the grove answers for the handle; the actor URL still works).',
      example: '@bristol-cyclists@activism.example',
    }),
    actorUrl: z.string().nullable().meta({ description: 'The ActivityPub actor URL while it federates.' }),
    followersCount: z
      .number()
      .int()
      .meta({ description: 'Remote followers kept, including while it does not federate.' }),
  })
  .strict()
  .meta({ id: 'FederationSettings' });

export const followersInput = () => z.object({ id: z.uuid(), ...pageQueryFields() });

export const followerOutput = z
  .object({
    _id: z.string(),
    actor: z
      .string()
      .meta({ description: "The follower's ActivityPub actor URI.", example: 'https://mastodon.example/users/ana' }),
    host: z.string().meta({ description: 'Its server.', example: 'mastodon.example' }),
    followedAt: z.string(),
  })
  .strict()
  .meta({ id: 'FederationFollower' });

export const followerListOutput = listEnvelope(followerOutput);

export const removeFollowerInput = () => z.object({ id: z.uuid(), followerId: z.uuid() });
