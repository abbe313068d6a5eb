// Groves: local groups with members and organizers. Public views carry counts, never member lists.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { groveRoles } from '../../../db/schema/groves.js';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slugInput = z
  .string()
  .min(2)
  .max(80)
  .regex(SLUG_PATTERN, 'Must be lower-case letters, digits and single hyphens.')
  .meta({ example: 'north-bristol' });

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
    actionTotal: z.number().nullable().meta({
      description:
        "Anonymous aggregate of members' opted-in action totals; null until the action log milestone. Never a list.",
    }),
    myRole: z
      .enum(groveRoles)
      .nullable()
      .meta({ description: "The caller's own membership, or null (always null for anonymous callers)." }),
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
export const groveSlugInput = z.object({ slug: z.string().min(1).max(80) });
export const groveIdInput = z.object({ id: z.uuid() });

export const createGroveInput = z
  .object({
    slug: slugInput.optional().meta({ description: 'Made from the name when absent.' }),
    name: z.string().trim().min(1).max(120),
    description: z.string().max(5000).default(''),
    region: regionInput,
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
    slug: slugInput.optional(),
    name: z.string().trim().min(1).max(120).optional(),
    description: z.string().max(5000).optional(),
    region: regionInput.optional(),
  })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', description: 'Outreach, potlucks and vigils.' }] });

export const appointInput = z
  .object({ id: z.uuid(), handle: z.string().min(1).max(30).meta({ description: 'Handle of the member to appoint.' }) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', handle: 'sam_sprouts' }] });
/** DELETE (query) inputs get a fresh schema per route: trpc-to-openapi coerces them in place. */
export const removeAppointmentInput = () => z.object({ id: z.uuid(), handle: z.string().min(1).max(30) });
export const leaveGroveInput = () => z.object({ id: z.uuid() });

export type GroveOutput = z.infer<typeof groveOutput>;
