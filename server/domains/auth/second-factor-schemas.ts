// Inputs and outputs of the second-factor sign-in step (second-factor.ts).
import { z } from 'zod';
import { uuidParam } from '../../shared/schemas.js';
import { sessionGrantOutput } from './schemas.js';
import { secondFactorMethodNames } from '../../auth/second-factor-methods.js';

export const ticketInput = z.string().min(1).max(64).meta({
  description: 'The `secondFactor.ticket` a sign-in answered.',
  example: 'q1Zb8mV6kPqS0r3T_wY7xA2cD5eF9gH4jK6lM8nO0pQ',
});
export const codeInput = z
  .string()
  .min(6)
  .max(12)
  .meta({ description: 'The 6-digit code the authenticator app shows now (spaces are ignored).', example: '492039' });
const recoveryCodeInput = z.string().min(16).max(24).meta({
  description:
    'One of the recovery codes shown when TOTP was turned on (dashes and spaces are ignored); each works once.',
  example: 'K7QM-2XPA-9RTB-4WND',
});

/**
 * A passkey assertion answering a ticket: the challenge from POST /api/auth/passkeys/options
 * `{ ticket }` and the authenticator's response (its shape is checked by the passkeys domain,
 * server/domains/passkeys/second-factor.ts: auth does not import passkeys).
 */
export const passkeyAssertionInput = z
  .object({
    challengeId: uuidParam().meta({
      description: 'The `challengeId` of POST /api/auth/passkeys/options `{ ticket }`.',
    }),
    response: z.looseObject({}).meta({ description: 'The WebAuthn assertion (AuthenticationResponseJSON).' }),
  })
  .meta({ id: 'PasskeyAssertion' });
export type PasskeyAssertion = z.infer<typeof passkeyAssertionInput>;

const answerFields = ['code', 'recoveryCode', 'passkey'] as const;

/** The ticket and exactly one answer (an object, as the REST adapter needs, checked to be one-of). */
export const secondFactorInput = z
  .object({
    ticket: ticketInput,
    code: codeInput.optional(),
    recoveryCode: recoveryCodeInput.optional(),
    passkey: passkeyAssertionInput.optional(),
  })
  .strict()
  .superRefine((input, context) => {
    const given = answerFields.filter((field) => input[field] !== undefined);
    if (given.length !== 1)
      context.addIssue({
        code: 'custom',
        path: given.length ? [given[1]!] : [],
        message: 'Send exactly one of code, recoveryCode or passkey.',
      });
  })
  .meta({
    description: 'The ticket and exactly one answer: `code`, `recoveryCode` or `passkey`.',
    oneOf: answerFields.map((field) => ({ required: [field] })),
    examples: [{ ticket: 'q1Zb8mV6kPqS0r3T_wY7xA2cD5eF9gH4jK6lM8nO0pQ', code: '492039' }],
  });
export type SecondFactorInput = z.infer<typeof secondFactorInput>;

export const secondFactorChallengeOutput = z
  .object({
    secondFactor: z.object({
      ticket: z.string().meta({ description: 'Single-use; send it to POST /api/auth/second-factor. Never a session.' }),
      methods: z
        .array(z.enum(secondFactorMethodNames))
        .meta({ description: 'The answers this account can give: `totp`, `recovery`, `passkey`.' }),
      expiresAt: z
        .string()
        .meta({ description: 'The ticket ends 5 minutes after the first factor, or after 5 answers.' }),
    }),
  })
  .meta({ id: 'SecondFactorChallenge' });

/** What a first-factor sign-in answers: a session, or (account with a second factor) a ticket. */
export const signInOutput = z.union([sessionGrantOutput, secondFactorChallengeOutput]).meta({
  id: 'SignInResult',
  description:
    'A session `{ token, user, expiresAt }`, or, when the account has a second factor (an authenticator app or a passkey), no session but `{ secondFactor: { ticket, methods, expiresAt } }`: finish with POST /api/auth/second-factor.',
});
