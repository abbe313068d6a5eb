// Images built for the upload tests (no binary fixtures in the repository), and the served app
// and upload step those tests share.
import { serve, type ServerType } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestMember } from '../setup/harness.js';

/** A JPEG as a phone writes it at a protest: camera make, model, serial and the GPS position. */
export async function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS 5D', Copyright: 'SN-CAMERA-123456' },
      IFD2: { BodySerialNumber: 'SN-CAMERA-123456' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2637/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3966/100',
      },
    })
    .toBuffer();
}

/**
 * The test app served over HTTP on a real port, as uploads need (presigned PUTs and image URLs
 * are built from PUBLIC_URL, pointed at that port), with a data directory of its own; `close`
 * stops it and removes the directory.
 */
export interface ServedApp {
  t: TestApp;
  /** Where the app keeps the uploaded files (DATA_DIR). */
  dataDir: string;
  close(): Promise<void>;
}

export async function startServedApp(dataDirPrefix: string): Promise<ServedApp> {
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  const t = await createTestApp({ DATA_DIR: dataDir });
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  t.config.PUBLIC_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    t,
    dataDir,
    async close() {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Presigns and uploads a JPEG (by default jpegWithGps(): GPS EXIF and a camera serial) for
 * `purpose`, with `alt` when given; returns the key.
 */
export async function uploadedImage(
  t: TestApp,
  owner: Pick<TestMember, 'token'>,
  purpose: string,
  options: { bytes?: Buffer; alt?: string } = {},
): Promise<string> {
  const bytes = options.bytes ?? (await jpegWithGps());
  const presigned = await t.request<{ url: string; key: string }>('POST', '/api/uploads/image/presign', {
    token: owner.token,
    body: { contentType: 'image/jpeg', purpose, contentLength: bytes.length, alt: options.alt },
  });
  expect(presigned.status, presigned.text).toBe(200);
  const put = await fetch(presigned.body.url, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return presigned.body.key;
}
