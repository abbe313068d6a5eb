// Turning on an authenticator app for a test member, and the codes the app would show.
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import type { TestApp, TestMember } from './harness.js';

/** The code of the step `offset` steps from the test clock's now. */
export function totpCode(t: TestApp, secret: Uint8Array, offset = 0): string {
  const step = Math.floor(t.clock.now().getTime() / 30_000) + offset;
  return generateHOTP(secret, BigInt(step), 6);
}

/** Starts and confirms TOTP through the API; the test clock moves past the confirming step. */
export async function enrolTotp(
  t: TestApp,
  member: TestMember,
): Promise<{ secret: Uint8Array; recoveryCodes: string[] }> {
  const start = await t.request('POST', '/api/me/totp', { token: member.token, body: { password: member.password } });
  if (start.status !== 200) throw new Error(`totp start failed: ${start.status} ${start.text}`);
  const secret = decodeBase32IgnorePadding(String(start.body.secret).replace(/ /g, ''));
  const confirm = await t.request('POST', '/api/me/totp/confirm', {
    token: member.token,
    body: { code: totpCode(t, secret) },
  });
  if (confirm.status !== 200) throw new Error(`totp confirm failed: ${confirm.status} ${confirm.text}`);
  t.clock.advance(30_000);
  return { secret, recoveryCodes: confirm.body.recoveryCodes };
}
