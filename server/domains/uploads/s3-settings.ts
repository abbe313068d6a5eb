// The S3 settings both object stores use (images: image-storage.ts; videos through tus:
// video-storage.ts), read from the same configuration variables, so the two clients cannot drift.
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';

export type S3Settings = Pick<
  Config,
  'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'
>;

/**
 * Client options: region, endpoint, path style and keys (none: the SDK's default chain), and
 * request checksums only where S3 requires them: S3-compatible stores do not all support the
 * rest, and a presigned PUT would otherwise carry the CRC32 of an empty body and be refused.
 */
export function s3ClientOptions(config: S3Settings) {
  return {
    region: config.S3_REGION,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
      : {}),
  } satisfies S3ClientConfig;
}
