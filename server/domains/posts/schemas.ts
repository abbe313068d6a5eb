// Posts, feeds, reactions, comments and saves: inputs and outputs.
import { z } from 'zod';
import { postVisibilityValues, reactionKindValues } from '../../../db/schema/posts.js';
import { normalizeTag, TAG_MAX_LENGTH } from './tags.js';
import { handleParam, listEnvelope, memberRef, pageQueryFields, uuidParam } from '../../shared/schemas.js';
import { imageOutput } from '../uploads/image-output.js';

export const POST_LIMITS = { body: 5000, comment: 2000, images: 4, imageKey: 200 } as const;

export const postVisibilities = postVisibilityValues;
export const reactionKinds = reactionKindValues;

/** Feed scope: `friends`, `public`, or `grove:<uuid>` for one grove the caller belongs to. */
export const FEED_SCOPE_PATTERN =
  /^(friends|public|grove:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

const reactionCounts = z
  .object(
    Object.fromEntries(reactionKinds.map((k) => [k, z.number().int()])) as Record<
      (typeof reactionKinds)[number],
      z.ZodNumber
    >,
  )
  .meta({ id: 'ReactionCounts', description: 'Number of reactions of each kind (every kind present, 0 when none).' });

export const postOutput = z
  .object({
    _id: z.string(),
    author: memberRef,
    body: z.string(),
    visibility: z.enum(postVisibilities),
    groveId: z.string().nullable().meta({ description: 'The grove of a `grove` post; null otherwise.' }),
    imageKeys: z.array(z.string()).meta({
      description: 'Upload keys given at creation, in order (attached images, see imageUrls).',
    }),
    imageUrls: z.array(z.string()).meta({
      description:
        'The clean images (re-encoded, without metadata), in the order of imageKeys: GET answers the image. The URL is a capability: anyone holding it can load the image.',
    }),
    images: z.array(imageOutput).meta({
      description:
        'The same images, in the same order, each with its size, alt text and resized variants (for srcset).',
    }),
    reactions: reactionCounts,
    myReaction: z
      .enum(reactionKinds)
      .nullable()
      .meta({ description: "The caller's reaction; null when none or anonymous." }),
    commentCount: z.number().int().meta({ description: 'Comments that are not hidden by moderation.' }),
    saved: z.boolean().meta({ description: 'Whether the caller saved it; false when anonymous.' }),
    hidden: z.boolean().meta({
      description: 'True only when a site admin reads a post that moderation hid (everyone else gets 404).',
    }),
    createdAt: z.string(),
  })
  .meta({ id: 'Post' });
export type PostOutput = z.infer<typeof postOutput>;
export const postListOutput = listEnvelope(postOutput);

export const feedInput = () =>
  z.object({
    scope: z
      .string()
      .regex(FEED_SCOPE_PATTERN, 'Must be friends, public or grove:<uuid>.')
      .default('friends')
      .meta({ description: '`friends` (default), `public`, or `grove:<uuid>`.' }),
    tag: z
      .string()
      .trim()
      .max(TAG_MAX_LENGTH + 1)
      .meta({
        description:
          'Only posts that carry this `#tag` in their text (without the `#`, any case: `Vegan` finds `#vegan` and `#VEGAN`). Letters of any script, digits and `_`, not only digits, at most 64 characters.',
        examples: ['vegan'],
      })
      .transform((value, ctx) => {
        const tag = normalizeTag(value.replace(/^#/, ''));
        if (tag === null) {
          ctx.addIssue({
            code: 'custom',
            message: `Must be a tag: letters, digits or _ (not only digits), at most ${TAG_MAX_LENGTH} characters.`,
          });
          return z.NEVER;
        }
        return tag;
      })
      .optional(),
    ...pageQueryFields(),
  });

export const createPostInput = z
  .object({
    body: z.string().trim().min(1).max(POST_LIMITS.body),
    visibility: z.enum(postVisibilities).meta({ examples: ['friends'] }),
    groveId: uuidParam()
      .nullable()
      .optional()
      .meta({
        description: 'Required when visibility is `grove` (the caller must be a member); absent or null otherwise.',
        examples: [null],
      }),
    imageKeys: z
      .array(z.string().min(1).max(POST_LIMITS.imageKey))
      .max(POST_LIMITS.images)
      .default([])
      .meta({
        description: `Up to ${POST_LIMITS.images} keys from POST /api/uploads/image/presign (purpose \`post\`), each uploaded and not used before: each is checked (yours, an image of its declared type, within the pixel limit), re-encoded without metadata, and attached to the post; a key that fails answers 400 and no post is created.`,
      }),
  })
  .strict()
  .refine((v) => (v.visibility === 'grove') === (v.groveId != null), {
    message: 'groveId is required for grove visibility and only allowed with it.',
    path: ['groveId'],
  })
  .meta({
    description: '`groveId` is required with `visibility: grove` and allowed (other than null) only with it.',
    oneOf: [
      { required: ['groveId'], properties: { visibility: { const: 'grove' }, groveId: { type: 'string' } } },
      { properties: { visibility: { not: { const: 'grove' } }, groveId: { type: 'null' } } },
    ],
    examples: [
      {
        body: 'Great turnout at the vigil today!',
        visibility: 'grove',
        groveId: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        imageKeys: [],
      },
    ],
  });
export type CreatePostInput = z.infer<typeof createPostInput>;

export const postIdInput = z.object({ id: uuidParam() });
export const reactInput = z
  .object({ id: uuidParam(), kind: z.enum(reactionKinds) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', kind: 'heart' }] });
export const reactionStateOutput = z
  .object({ reactions: reactionCounts, myReaction: z.enum(reactionKinds).nullable() })
  .meta({ id: 'ReactionState' });

export const commentOutput = z
  .object({
    _id: z.string(),
    postId: z.string(),
    author: memberRef,
    body: z.string(),
    hidden: z.boolean().meta({ description: 'True only when a site admin reads a comment that moderation hid.' }),
    createdAt: z.string(),
  })
  .meta({ id: 'Comment' });
export const commentListOutput = listEnvelope(commentOutput);
export const listCommentsInput = () => z.object({ id: uuidParam(), ...pageQueryFields() });
export const createCommentInput = z
  .object({ id: uuidParam(), body: z.string().trim().min(1).max(POST_LIMITS.comment) })
  .strict()
  .meta({ examples: [{ id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6', body: 'Thanks for organising!' }] });
export const commentIdInput = z.object({ id: uuidParam(), commentId: uuidParam() });

export const handlePostsInput = () => z.object({ handle: handleParam(), ...pageQueryFields() });
export const savedPostsInput = () => z.object(pageQueryFields());
