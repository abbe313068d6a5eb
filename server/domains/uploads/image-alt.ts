// Changing an image's description (its `alt`) after upload: PATCH /api/uploads/images/{purpose}/{id}.
// The description belongs to the upload, not to the record holding it, so it is the uploader's
// to change (the one who saw the picture and described it in the presign), whether the key is
// attached yet or not. Anyone else, and a key that never existed or was released with its record,
// gets the same 404: the route tells no one whether somebody else's key exists.
import { and, eq } from 'drizzle-orm';
import { imageUploads } from '../../../db/schema/index.js';
import { AppError } from '../../errors.js';
import type { MemberServiceContext } from '../../service/context.js';
import { imageOutputFor, type ImageOutput } from './image-output.js';

export async function updateImageAlt(
  ctx: MemberServiceContext,
  input: { purpose: string; id: string; alt: string | null },
): Promise<ImageOutput> {
  const key = `${input.purpose}/${input.id}`;
  const [row] = await ctx.db
    .update(imageUploads)
    .set({ alt: input.alt?.trim() || null })
    .where(and(eq(imageUploads.key, key), eq(imageUploads.ownerId, ctx.user.id)))
    .returning({
      alt: imageUploads.alt,
      width: imageUploads.width,
      height: imageUploads.height,
      variants: imageUploads.variants,
    });
  if (!row) throw new AppError('not_found', 'No such image.');
  return imageOutputFor(ctx.config, key, row)!;
}
