// Groves: local groups with members and organizers. Public views carry counts, never member lists.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { groveJoinPolicies, groveRoles } from '../../../db/schema/groves.js';
import { hostSlugInput } from '../../shared/schemas.js';
import { actionTotalsOutput } from '../actions/schemas.js';

/** [west, south, east, north] in degrees; west > east crosses the antimeridian. */
export const bboxInput = z
  .tuple([
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
    z.number().min(-180).max(180),
    z.number().min(-90).max(90),
  ])
  .refine(([, south, , north]) => south <= north, { message: 'south must not be above north.' })
  .meta({ description: '[west, south, east, north] in degrees (WGS 84).' });

export const regionInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .meta({ description: 'Area name used by event search (`area` filter).', example: 'Bristol' }),
    bbox: bboxInput.nullable().optional(),
  })
  .strict();

export const groveOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    region: z.object({ name: z.string(), bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable() }),
    memberCount: z.number().int().meta({ description: 'Members including organizers. Never a list.' }),
    organizerCount: z.number().int(),
    actionTotals: actionTotalsOutput.nullable().meta({
      description:
        "Anonymous sum of the action totals of this grove's members who opted in; null while fewer than 5 contribute. Never a list.",
    }),
    myRole: z
      .enum(groveRoles)
      .nullable()
      .meta({ description: "The caller's own membership, or null (always null for anonymous callers)." }),
    joinPolicy: z.enum(groveJoinPolicies).meta({
      description:
        '`open`: joining makes a member at once; `approval`: joining asks the organizers, who accept or decline; `invite`: only with an invite code from an organizer.',
    }),
    myJoinRequestPending: z
      .boolean()
      .meta({ description: "True while the caller's own join request waits for an organizer." }),
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'Grove' });

export const listGrovesInput = () =>
  z.object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Case-insensitive match on name or region name.' }),
    ...pageQueryFields(),
  });
export const groveListOutput = listEnvelope(groveOutput);
export const groveSlugInput = z.object({
  grove: z.string().min(1).max(80).meta({ description: "The grove's slug (PATCH on this path takes its `_id`)." }),
});

export const createGroveInput = z
  .object({
    slug: hostSlugInput.optional().meta({ description: 'Made from the name when absent.' }),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(5000).default(''),
    region: regionInput,
    joinPolicy: z
      .enum(groveJoinPolicies)
      .default('approval')
      .meta({ description: 'Safe by default: `approval` (organizers accept each join).' }),
  })
  .strict()
  .meta({
    examples: [
      {
        name: 'North Bristol',
        description: 'Outreach and potlucks in north Bristol.',
        region: { name: 'Bristol', bbox: [-2.7, 51.4, -2.5, 51.55] },
      },
    ],
  });

export const updateGroveInput = z
  .object({
    id: z.uuid(),
    slug: hostSlugInput.optional(),
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(5000).optional(),
    region: regionInput.optional(),
    joinPolicy: z.enum(groveJoinPolicies).optional(),
  })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', description: 'Outreach, potlucks and vigils.' }] });

export const appointInput = z
  .object({ id: z.uuid(), handle: z.string().min(1).max(30).meta({ description: 'Handle of the member to appoint.' }) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', handle: 'sam_sprouts' }] });
export const removeAppointmentInput = () => z.object({ id: z.uuid(), handle: z.string().min(1).max(30) });
export const leaveGroveInput = () => z.object({ id: z.uuid() });

export type GroveOutput = z.infer<typeof groveOutput>;

// ---- membership moderation (organizers of the grove) -------------------------------------

/** Grove invite codes: 16 base32 characters (80 random bits), case-insensitive. */
export const GROVE_INVITE_CODE_PATTERN = /^[A-Za-z2-7]{16}$/;
export const groveInviteCode = z
  .string()
  .regex(GROVE_INVITE_CODE_PATTERN, 'Must be a 16-character grove invite code.')
  .meta({ example: 'k3v7q2m4x5a6b7c2' });

export const joinGroveInput = z
  .object({
    id: z.uuid(),
    code: groveInviteCode
      .optional()
      .meta({ description: 'An invite code from an organizer: makes a member at once, whatever the policy.' }),
  })
  .strict()
  .meta({
    examples: [
      { id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6' },
      { id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', code: 'k7qp2xw4mzrtbd3e' },
    ],
  });
export const joinGroveOutput = z
  .object({
    status: z.enum(['member', 'pending']).meta({
      description: '`member`: the caller is a member now; `pending`: an organizer has to accept the request first.',
    }),
    grove: groveOutput,
  })
  .strict()
  .meta({ id: 'GroveJoinResult' });

export const organizerUpdateGroveInput = z
  .object({
    grove: z.uuid().meta({ description: "The grove's `_id` (GET on this path takes its slug)." }),
    joinPolicy: z.enum(groveJoinPolicies).optional(),
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(5000).optional(),
  })
  .strict()
  .meta({ examples: [{ grove: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', joinPolicy: 'invite' }] });

const handleParam = () => z.string().min(1).max(30).meta({ description: "The member's handle." });
export const groveMemberInput = () => z.object({ id: z.uuid(), handle: handleParam() });
export const groveListInput = () => z.object({ id: z.uuid(), ...pageQueryFields() });
export const banInput = z
  .object({ id: z.uuid(), handle: handleParam() })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', handle: 'sam_sprouts' }] });

/** A ban takes the organizers' reason (shown to the grove's organizers only). */
export const banMemberInput = z
  .object({
    id: z.uuid(),
    handle: handleParam(),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe(
        "Why the member is banned, for the grove's organizers (GET /api/groves/{id}/bans); never shown to the member. A ban of someone already banned replaces the reason when one is given.",
      ),
  })
  .strict()
  .meta({
    examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', handle: 'sam_sprouts', reason: 'Threatened members' }],
  });

export const groveMemberOutput = z
  .object({ handle: z.string(), role: z.enum(groveRoles), joinedAt: z.string() })
  .strict()
  .meta({ id: 'GroveMember' });
export const groveMemberListOutput = listEnvelope(groveMemberOutput);

export const joinRequestOutput = z
  .object({ _id: z.string(), handle: z.string(), requestedAt: z.string() })
  .strict()
  .meta({ id: 'GroveJoinRequest' });
export const joinRequestListOutput = listEnvelope(joinRequestOutput);

export const groveBanOutput = z
  .object({ handle: z.string(), bannedAt: z.string(), reason: z.string().nullable() })
  .strict()
  .meta({ id: 'GroveBan' });
export const groveBanListOutput = listEnvelope(groveBanOutput);

export const createInviteInput = z
  .object({
    id: z.uuid(),
    maxUses: z.number().int().min(1).max(100).default(1).meta({ description: 'How many members may join with it.' }),
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(720)
      .default(168)
      .meta({ description: 'Lifetime in hours (default 7 days, at most 30 days).' }),
  })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', maxUses: 5, expiresInHours: 48 }] });
export const groveInviteOutput = z
  .object({
    _id: z.string(),
    code: z.string().meta({ description: 'Shown once: only its hash is stored.' }),
    maxUses: z.number().int(),
    expiresAt: z.string(),
  })
  .strict()
  .meta({ id: 'GroveInvite' });
export const revokeInviteInput = () => z.object({ id: z.uuid(), inviteId: z.uuid() });
