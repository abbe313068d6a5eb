// Inputs and outputs of the place routes. The output schema is the privacy boundary: it has no
// submitter field, so nothing about the member who submitted a place can leave the server.
import { z } from 'zod';
import { LETTER_OR_DIGIT_PATTERN, urlPatternFor } from '../../shared/patterns.js';
import { placeStatuses, placeTypes, veganLevels } from '../../../db/schema/places.js';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { imageRefInput } from '../uploads/image-ref.js';
import { imageOutput } from '../uploads/image-output.js';

export const PLACE_LIMITS = {
  name: 120,
  address: 300,
  hours: 500,
  url: 2048,
  tags: 20,
  tag: 40,
  photos: 10,
  q: 100,
  rejectionReason: 500,
} as const;

const longitude = z.number().min(-180).max(180);
const latitude = z.number().min(-90).max(90);

export const locationSchema = z
  .object({ lng: longitude, lat: latitude })
  .strict()
  .meta({
    id: 'PlaceLocation',
    description: 'WGS 84 point: `lng` −180..180, `lat` −90..90.',
    example: { lng: 13.405, lat: 52.52 },
  });

const httpUrl = (what: string, protocols: RegExp) =>
  z
    .string()
    .trim()
    .max(PLACE_LIMITS.url)
    .pipe(z.url({ protocol: protocols, hostname: z.regexes.domain, message: `Must be an absolute ${what} URL.` }))
    .meta({ format: 'uri', pattern: urlPatternFor(protocols.test('http')) });

const text = (max: number) => z.string().trim().min(1).max(max);

/** Tags are trimmed, lower-cased and de-duplicated. */
const tagsSchema = z
  .array(text(PLACE_LIMITS.tag))
  .max(PLACE_LIMITS.tags)
  .transform((tags) => [...new Set(tags.map((tag) => tag.toLowerCase()))]);

export const createPlaceInput = z
  .object({
    name: text(PLACE_LIMITS.name),
    type: z.enum(placeTypes),
    veganLevel: z.enum(veganLevels),
    address: text(PLACE_LIMITS.address),
    hours: text(PLACE_LIMITS.hours)
      .nullish()
      .meta({ description: 'Optional free text, e.g. "Mon–Fri 9–17"; null or absent for none.' }),
    website: httpUrl('http(s)', /^https?$/).meta({ description: 'Absolute http(s) URL.' }),
    tags: tagsSchema.default([]).meta({
      description: `Up to ${PLACE_LIMITS.tags} tags of 1–${PLACE_LIMITS.tag} characters; stored lower-cased, duplicates dropped.`,
    }),
    photos: z
      .array(imageRefInput('photo', 'place'))
      .max(PLACE_LIMITS.photos)
      .default([])
      .meta({
        description: `Up to ${PLACE_LIMITS.photos} photos, each an absolute https image URL or a key from POST /api/uploads/image/presign (purpose \`place\`), uploaded and not used before. Each key is attached to the place (checked, re-encoded without metadata); one that is not yours, of another purpose, already used or not a valid image answers 400 and no place is created.`,
      }),
    location: locationSchema,
  })
  .strict()
  .meta({
    examples: [
      {
        name: 'Green Leaf Café',
        type: 'cafe',
        veganLevel: 'full',
        address: 'Oranienstraße 12, 10999 Berlin',
        hours: 'Mon–Fri 9–17',
        website: 'https://example.org/green-leaf',
        tags: ['brunch', 'cake'],
        photos: ['https://images.example.org/green-leaf.jpg'],
        location: { lng: 13.4181, lat: 52.5008 },
      },
    ],
  });

export type CreatePlaceInput = z.infer<typeof createPlaceInput>;

export const placeOutput = z
  .object({
    _id: z.string(),
    slug: z.string(),
    name: z.string(),
    type: z.enum(placeTypes),
    veganLevel: z.enum(veganLevels),
    address: z.string(),
    hours: z.string().nullable(),
    website: z.string(),
    tags: z.array(z.string()),
    photos: z.array(z.string()).meta({
      description: 'As given: https URLs and keys of attached uploads, in order.',
    }),
    photoUrls: z.array(z.string()).meta({
      description:
        'The URLs to load, in the order of photos: an https URL as given, an uploaded photo as its clean image (re-encoded, without metadata) on this service.',
    }),
    photoImages: z.array(imageOutput).meta({
      description:
        'The same photos, in the same order, each with its size, alt text and resized variants (for srcset).',
    }),
    location: z.object({ lng: z.number(), lat: z.number() }),
    status: z.enum(placeStatuses),
    createdAt: z.string(),
    averageRating: z
      .number()
      .nullable()
      .meta({ description: 'Mean rating of its reviews (1–5), rounded to 2 decimals; null while it has none.' }),
    reviewCount: z.number().int().meta({ description: 'Number of reviews (GET /api/places/{id}/reviews).' }),
    rejectionReason: z.string().optional().meta({
      description:
        'Only on a rejected place, and only when the admin gave a reason. A rejected place is visible to its submitter and admins alone, so no one else ever sees it.',
    }),
  })
  .strict()
  .meta({ id: 'Place' });

export type PlaceOutput = z.infer<typeof placeOutput>;

export const placeListOutput = listEnvelope(placeOutput);

export interface BoundingBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** "west,south,east,north": four finite numbers; west > east crosses the antimeridian. */
const BBOX_NUMBER = String.raw`\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*`;
/** The shape of a bbox (the ranges are checked after parsing); also the documented pattern. */
export const BBOX_PATTERN = new RegExp(`^${[BBOX_NUMBER, BBOX_NUMBER, BBOX_NUMBER, BBOX_NUMBER].join(',')}$`);

function bboxSchema() {
  return z
    .string()
    .max(200)
    .regex(BBOX_PATTERN, 'Must be four comma-separated numbers: west,south,east,north.')
    .transform((value, ctx): BoundingBox => {
      const parts = value.split(',').map((part) => part.trim());
      const numbers = parts.map((part) => (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(part) ? Number(part) : NaN));
      const [west, south, east, north] = numbers as [number, number, number, number];
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n)))
        return fail('Must be four comma-separated numbers: west,south,east,north.');
      if (Math.abs(west) > 180 || Math.abs(east) > 180)
        return fail('Longitudes (west, east) must be within -180..180.');
      if (Math.abs(south) > 90 || Math.abs(north) > 90) return fail('Latitudes (south, north) must be within -90..90.');
      if (south > north) return fail('south must not be greater than north.');
      return { west, south, east, north };
    })
    .meta({
      description: 'west,south,east,north in degrees (WGS 84). west > east means the box crosses the antimeridian.',
      example: '13.0,52.3,13.8,52.7',
    });
}

/** q: words of letters or digits; each word matches as a prefix. */
function searchSchema() {
  return z
    .string()
    .trim()
    .min(1)
    .max(PLACE_LIMITS.q)
    .refine((q) => /[\p{L}\p{N}]/u.test(q), 'Must contain at least one letter or digit.')
    .meta({
      description: 'Text search over name, address and tags; every word must match (as a word prefix).',
      pattern: LETTER_OR_DIGIT_PATTERN,
    });
}

export function listPlacesInput() {
  return z.object({
    bbox: bboxSchema().optional(),
    type: z.enum(placeTypes).optional(),
    veganLevel: z.enum(veganLevels).optional(),
    q: searchSchema().optional(),
    ...pageQueryFields(),
  });
}

export type ListPlacesInput = z.infer<ReturnType<typeof listPlacesInput>>;

export const placeSlugInput = z.object({ slug: z.string().min(1).max(200) });
export const placeIdInput = z.object({ id: z.uuid() });
export const rejectPlaceInput = z
  .object({
    id: z.uuid(),
    reason: text(PLACE_LIMITS.rejectionReason)
      .optional()
      .meta({
        description: `Why the place is not approved (1–${PLACE_LIMITS.rejectionReason} characters), for its submitter: the rejected place shows it to them (and to admins) as \`rejectionReason\`.`,
      }),
  })
  .meta({
    examples: [
      { id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', reason: 'The address is a private flat, not open to the public.' },
    ],
  });
export const listPendingInput = z.object(pageQueryFields());
