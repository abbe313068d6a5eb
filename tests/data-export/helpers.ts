// Factories for the data export tests: run the builder job and the sweep as the server would,
// ask for an export and fetch the archive, and open the zip.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { createExportBuilderJob, exportSweep } from '../../server/domains/data-export/jobs.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import type { TestApp, TestMember } from '../setup/harness.js';

export function jobsOf(t: TestApp) {
  const builder = createExportBuilderJob(t.deps);
  const runner = createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [
    builder,
    exportSweep,
  ]);
  return {
    /** One builder run (claim, then build after the commit); its summary. */
    build: () => runner.runOnce(builder),
    /** Builds until nothing is queued. */
    async buildAll() {
      for (let i = 0; i < 50; i++) if ((await runner.runOnce(builder))?.claimed === 0) return;
    },
    sweep: () => runner.runOnce(exportSweep),
  };
}

/** The zip's entries as text, by file name. */
export function openZip(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** Fetches a URL with the member's session; the raw bytes. */
export async function download(t: TestApp, url: string, token?: string) {
  const response = await t.app.request(
    url,
    { headers: token ? { authorization: `Bearer ${token}` } : {} },
    {
      incoming: { socket: { remoteAddress: '203.0.113.9' } },
    },
  );
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Ask, build, read the state with its link, download: the archive's files. */
export async function exportOf(t: TestApp, member: TestMember): Promise<Record<string, string>> {
  const asked = await t.request('POST', '/api/me/export', { token: member.token });
  if (asked.status !== 202) throw new Error(`export request: ${asked.status} ${asked.text}`);
  await jobsOf(t).buildAll();
  const state = await t.request('GET', '/api/me/export', { token: member.token });
  if (state.body?.state !== 'ready') throw new Error(`export state: ${state.text}`);
  const file = await download(t, state.body.download.url, member.token);
  if (file.status !== 200) throw new Error(`export download: ${file.status}`);
  return openZip(file.bytes);
}

/**
 * Gives a member a passkey (random credential id and public key), a confirmed TOTP (a random
 * sealed secret) and `codes` recovery codes, straight in the tables: what the archive must
 * describe without ever holding the key material.
 */
export async function seedSecondFactors(t: TestApp, member: TestMember, passkeyName: string, codes = 2) {
  const credentialId = randomBytes(32).toString('base64url');
  const publicKey = randomBytes(77);
  const secret = randomBytes(40);
  const confirmedAt = t.clock.now().toISOString();
  await t.deps.database.rows(
    sql`insert into passkeys (id, user_id, credential_id, public_key, name)
        values (gen_random_uuid(), ${member.id}, ${credentialId}, ${publicKey}, ${passkeyName})`,
  );
  await t.deps.database.rows(
    sql`insert into totp_credentials (user_id, secret_key_id, secret_nonce, secret_ciphertext, confirmed_at)
        values (${member.id}, 'k1', ${randomBytes(24)}, ${secret}, ${confirmedAt}::timestamptz)`,
  );
  for (let i = 0; i < codes; i++)
    await t.deps.database.rows(
      sql`insert into recovery_codes (id, user_id, code_hash) values (gen_random_uuid(), ${member.id}, ${randomBytes(32)})`,
    );
  return { credentialId, publicKey, secret, confirmedAt };
}
