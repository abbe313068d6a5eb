// The data export's API shapes: its state, as POST /api/me/export and GET /api/me/export answer it.
import { z } from 'zod';

export const exportStates = ['none', 'queued', 'building', 'ready', 'expired', 'failed'] as const;
export type ExportState = (typeof exportStates)[number];

export const exportStateOutput = z
  .object({
    state: z.enum(exportStates).meta({
      description:
        '`none`: never asked (or the row was swept); `queued`/`building`: the job is on it; `ready`: downloadable once, until `expiresAt`; `expired`: downloaded, or 24 hours passed (the archive is deleted); `failed`: the build failed (ask again at once).',
    }),
    requestedAt: z.string().nullable(),
    readyAt: z.string().nullable().meta({ description: 'When the archive was built (or the build failed).' }),
    expiresAt: z.string().nullable().meta({ description: 'Ready: when the archive and its link are deleted.' }),
    downloadedAt: z.string().nullable(),
    sizeBytes: z.number().int().nullable().meta({ description: 'The zip, in bytes (ready only).' }),
    files: z.number().int().nullable().meta({ description: 'JSON files in the zip (ready only).' }),
    download: z
      .object({
        url: z.string().meta({
          description:
            'GET it with the same session (Authorization header) to receive the zip, once. Reading the state again issues a new link and retires this one.',
        }),
        expiresAt: z.string(),
      })
      .strict()
      .nullable()
      .meta({ description: 'Ready only: a fresh single-use link.' }),
    nextRequestAt: z.string().nullable().meta({
      description: 'The earliest time POST /api/me/export accepts a new request; null: now (or never asked).',
    }),
  })
  .strict()
  .meta({ id: 'DataExport' });
export type ExportStateOutput = z.infer<typeof exportStateOutput>;

/** The download's query (the raw route validates it with this). */
export const downloadInput = z.object({ token: z.string().min(1).max(200) }).strict();
