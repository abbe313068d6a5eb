// Inputs and outputs of place reviews and place lists. The output schemas are the privacy
// boundary: a review has no author field unless its author chose `showHandle` (then only the
// handle), a list has no owner field unless its owner chose `showHandle`; neither ever carries
// a member id. Both are strict, so a stray field fails the answer instead of leaking.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { changeInput, slugParam, uuidParam } from '../../shared/schemas.js';

export const REVIEW_LIMITS = { text: 4000 } as const;
export const PLACE_LIST_LIMITS = { name: 100, description: 1000, placesPerList: 500, listsPerMember: 100 } as const;
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
/** The earliest month a review may name: anything before is a typo, not a visit. */
export const EARLIEST_MONTH = '1900-01';

// ---- reviews ---------------------------------------------------------------------------------

export const reviewOutput = z
  .object({
    _id: z.string(),
    placeId: z.string(),
    rating: z.number().int().min(1).max(5),
    text: z.string(),
    monthVisited: z.string().nullable().meta({ description: 'YYYY-MM, or null when not given.' }),
    showHandle: z.boolean().meta({ description: 'Whether the author chose to show their handle.' }),
    authorHandle: z.string().optional().meta({
      description:
        "The author's current handle, present only when `showHandle` is true. Otherwise the review has no author field at all, and nothing in it (its `_id` included) leads to the author.",
    }),
    createdAt: z.string(),
    updatedAt: z.string().nullable().meta({ description: 'Last edit by the author; null when never edited.' }),
  })
  .strict()
  .meta({ id: 'PlaceReview' });

export type ReviewOutput = z.infer<typeof reviewOutput>;
export const reviewListOutput = listEnvelope(reviewOutput);

const monthVisited = () =>
  z
    .string()
    .regex(MONTH_PATTERN, 'Must be YYYY-MM.')
    .meta({ description: `YYYY-MM, from ${EARLIEST_MONTH} up to the current month (400 when in the future).` });
const reviewText = () => z.string().trim().min(1).max(REVIEW_LIMITS.text);
const rating = () => z.number().int().min(1).max(5).meta({ description: 'Whole stars, 1–5.' });

export const listReviewsInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const placeReviewInput = z.object({ id: uuidParam() });

export const createReviewInput = z
  .object({
    id: uuidParam(),
    rating: rating(),
    text: reviewText(),
    monthVisited: monthVisited().nullish(),
    showHandle: z
      .boolean()
      .default(false)
      .meta({ description: "Show the author's handle with the review. Off by default." }),
  })
  .strict()
  .meta({
    examples: [
      {
        id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        rating: 5,
        text: 'Great brunch, friendly staff.',
        monthVisited: '2026-10',
        showHandle: false,
      },
    ],
  });

export type CreateReviewInput = z.infer<typeof createReviewInput>;

export const updateReviewInput = changeInput(
  {
    rating: rating().optional(),
    text: reviewText().optional(),
    monthVisited: monthVisited().nullable().optional().meta({ description: 'null clears it.' }),
    showHandle: z.boolean().optional(),
  },
  { rating: 4, showHandle: true },
);

export type UpdateReviewInput = z.infer<typeof updateReviewInput>;

// ---- place lists -----------------------------------------------------------------------------

export const placeListOutput = z
  .object({
    _id: z.string(),
    slug: z
      .string()
      .meta({ description: 'Stable public address of the list (GET /api/place-lists/{id} takes it too).' }),
    name: z.string(),
    description: z.string().nullable(),
    isPublic: z.boolean(),
    showHandle: z.boolean().meta({ description: 'Whether the owner chose to show their handle on the list.' }),
    ownerHandle: z.string().optional().meta({
      description:
        "The owner's current handle, present only when `showHandle` is true; otherwise the list has no owner field at all.",
    }),
    placeCount: z.number().int().meta({ description: 'Places in the list (GET /api/place-lists/{id}/places).' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'PlaceList' });

export type PlaceListOutput = z.infer<typeof placeListOutput>;
export const placeListListOutput = listEnvelope(placeListOutput);

/** A list is addressed by its `_id`, or (reads only) by its slug. */
const listAddress = () => z.union([uuidParam(), slugParam()]).meta({ description: "The list's `_id` or its `slug`." });

export const listPlaceListsInput = () => z.object(pageQueryFields());
export const placeListIdInput = z.object({ id: uuidParam() });
export const placeListAddressInput = z.object({ id: listAddress() });
export const listPlacesOfListInput = () => z.object({ id: listAddress(), ...pageQueryFields() });
export const placeInListInput = z.object({ id: uuidParam(), placeId: uuidParam() });

const listName = () => z.string().trim().min(1).max(PLACE_LIST_LIMITS.name);
const listDescription = () => z.string().trim().max(PLACE_LIST_LIMITS.description);

export const createPlaceListInput = z
  .object({
    name: listName(),
    description: listDescription().nullish(),
    isPublic: z.boolean().default(false).meta({ description: 'Private by default.' }),
    showHandle: z
      .boolean()
      .default(false)
      .meta({ description: "Show the owner's handle on the list (when public). Off by default." }),
  })
  .strict()
  .meta({
    examples: [{ name: 'Berlin brunch', description: 'Weekend favourites.', isPublic: false, showHandle: false }],
  });

export type CreatePlaceListInput = z.infer<typeof createPlaceListInput>;

export const updatePlaceListInput = changeInput(
  {
    name: listName().optional(),
    description: listDescription().nullable().optional().meta({ description: 'null clears it.' }),
    isPublic: z.boolean().optional(),
    showHandle: z.boolean().optional(),
  },
  { name: 'Berlin brunch spots', isPublic: true },
);

export type UpdatePlaceListInput = z.infer<typeof updatePlaceListInput>;
