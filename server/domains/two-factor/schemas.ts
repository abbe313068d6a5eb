// Inputs and outputs of the member's own authenticator app and recovery codes.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords.js';
import { codeInput } from '../auth/second-factor-schemas.js';

const passwordCheck = z.string().max(PASSWORD_MAX_LENGTH).meta({
  description: "The account's current password; required when the account has one (ignored when it has none).",
});

export const startTotpInput = z
  .object({ password: passwordCheck.optional() })
  .strict()
  .meta({ examples: [{ password: 'correct horse battery staple' }] });
export const startTotpOutput = z
  .object({
    secret: z.string().meta({ description: 'Base32, in groups of four: to type into the app. Shown this once.' }),
    otpauthUri: z.string().meta({ description: 'The otpauth:// URI (a QR code of it is what apps scan).' }),
  })
  .meta({ id: 'TotpEnrolment' });
export const confirmTotpInput = z
  .object({ code: codeInput })
  .strict()
  .meta({ examples: [{ code: '492039' }] });
export const recoveryCodesOutput = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .length(10)
      .meta({ description: 'Ten single-use codes, shown this once; each signs in instead of a code.' }),
  })
  .meta({ id: 'RecoveryCodes' });
export const totpCheckInput = z
  .object({
    password: passwordCheck.optional(),
    code: z.string().min(6).max(24).meta({
      description: 'A code of the authenticator app, or one of the recovery codes (used up).',
      example: '492039',
    }),
  })
  .strict()
  .meta({ examples: [{ password: 'correct horse battery staple', code: '492039' }] });
export const secondFactorsOutput = z
  .object({
    totp: z.boolean().meta({ description: 'An authenticator app is confirmed.' }),
    passkeys: z.number().int().min(0),
    recoveryCodesLeft: z.number().int().min(0),
  })
  .meta({ id: 'SecondFactors' });
