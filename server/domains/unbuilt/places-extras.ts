// Place reviews and private place lists: mounted, validated, answering 501.
// A review shows its author's handle only when `showHandle` is true (spec: Place review).
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { memberProcedure, notImplemented, publicProcedure } from '../../trpc/procedures.js';
import { jsonBoolean, jsonNumber, okOutput, uuidParam } from './common.js';

const unbuilt = true as const;
const reviewTags = ['places'];
const listTags = ['place-lists'];

export const REVIEW_LIMITS = { text: 4000 } as const;
export const PLACE_LIST_LIMITS = { name: 100, description: 1000, places: 500 } as const;
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export const reviewOutput = z
  .object({
    _id: z.string(),
    placeId: z.string(),
    rating: z.number().int(),
    text: z.string(),
    monthVisited: z.string().nullable().meta({ description: 'YYYY-MM.' }),
    authorHandle: z.string().nullable().meta({ description: 'Only when the author chose showHandle; otherwise null.' }),
    createdAt: z.string(),
  })
  .meta({ id: 'PlaceReview' });

export const listReviewsInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const createReviewInput = z
  .object({
    id: uuidParam(),
    rating: jsonNumber(z.number().int().min(1).max(5)),
    text: z.string().trim().min(1).max(REVIEW_LIMITS.text),
    monthVisited: z
      .string()
      .regex(MONTH_PATTERN, 'Must be YYYY-MM.')
      .optional()
      .meta({ description: 'YYYY-MM, not in the future.' }),
    showHandle: jsonBoolean()
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

export const placeListOutput = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isPublic: z.boolean(),
    placeIds: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'PlaceList' });

const placeIds = () => z.array(uuidParam()).max(PLACE_LIST_LIMITS.places);
export const listPlaceListsInput = () => z.object(pageQueryFields());
export const createPlaceListInput = z
  .object({
    name: z.string().trim().min(1).max(PLACE_LIST_LIMITS.name),
    description: z.string().trim().max(PLACE_LIST_LIMITS.description).optional(),
    isPublic: jsonBoolean().default(false).meta({ description: 'Private by default.' }),
    placeIds: placeIds().default([]),
  })
  .strict()
  .meta({
    examples: [
      {
        name: 'Berlin brunch',
        description: 'Weekend favourites.',
        isPublic: false,
        placeIds: ['01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6'],
      },
    ],
  });
export const updatePlaceListInput = z
  .object({
    id: uuidParam(),
    name: z.string().trim().min(1).max(PLACE_LIST_LIMITS.name).optional(),
    description: z.string().trim().max(PLACE_LIST_LIMITS.description).nullable().optional(),
    isPublic: jsonBoolean().optional(),
    placeIds: placeIds().optional().meta({ description: 'Replaces the whole list of places.' }),
  })
  .strict()
  .refine((v) => Object.keys(v).some((k) => k !== 'id'), { message: 'Send at least one field to change.' })
  .meta({
    description: 'Only the fields to change, at least one.',
    minProperties: 1,
    examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', name: 'Berlin brunch spots' }],
  });
export const placeListIdInput = z.object({ id: uuidParam() });

export const placeExtrasProcedures = {
  listReviews: publicProcedure
    .meta({
      auth: 'public',
      unbuilt,
      openapi: {
        method: 'GET',
        path: '/api/places/{id}/reviews',
        tags: reviewTags,
        protect: false,
        summary: 'Reviews of an approved place',
      },
    })
    .input(listReviewsInput())
    .output(listEnvelope(reviewOutput))
    .query(() => notImplemented()),

  createReview: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'reviews.create',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/places/{id}/reviews',
        tags: reviewTags,
        summary: 'Review a place',
        description: 'One review per member and place; a second answers 409.',
      },
    })
    .input(createReviewInput)
    .output(reviewOutput)
    .mutation(() => notImplemented()),

  listLists: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'GET', path: '/api/place-lists', tags: listTags, summary: "The caller's place lists" },
    })
    .input(listPlaceListsInput())
    .output(listEnvelope(placeListOutput))
    .query(() => notImplemented()),

  createList: memberProcedure
    .meta({
      auth: 'member',
      writeLimit: 'placeLists.create',
      unbuilt,
      successStatus: 201,
      openapi: {
        method: 'POST',
        path: '/api/place-lists',
        tags: listTags,
        summary: 'Create a place list (private by default)',
      },
    })
    .input(createPlaceListInput)
    .output(placeListOutput)
    .mutation(() => notImplemented()),

  updateList: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'PATCH', path: '/api/place-lists/{id}', tags: listTags, summary: 'Change a place list' },
    })
    .input(updatePlaceListInput)
    .output(placeListOutput)
    .mutation(() => notImplemented()),

  deleteList: memberProcedure
    .meta({
      auth: 'member',
      unbuilt,
      openapi: { method: 'DELETE', path: '/api/place-lists/{id}', tags: listTags, summary: 'Delete a place list' },
    })
    .input(placeListIdInput)
    .output(okOutput)
    .mutation(() => notImplemented()),
};
