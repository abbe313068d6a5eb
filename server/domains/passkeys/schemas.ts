// Inputs and outputs of the passkey routes. WebAuthn's JSON is relayed as the browser made it
// (@simplewebauthn/browser's startRegistration / startAuthentication); its binary fields are
// base64url strings, bounded here so nothing large reaches the verifier.
import { z } from 'zod';
import { listEnvelope } from '../../lib/pagination.js';
import { uuidParam } from '../../shared/schemas.js';

/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url.');

const credentialId = b64url(1400).min(1);
const extensionResults = z.record(z.string(), z.unknown()).meta({ description: 'clientExtensionResults, as sent.' });
const attachment = z.enum(['platform', 'cross-platform']).optional();

export const registrationResponseInput = z
  .object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: b64url(8192),
      attestationObject: b64url(32768),
      authenticatorData: b64url(8192).optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(8192).optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  })
  .meta({
    id: 'PasskeyRegistrationResponse',
    description: "The browser's PublicKeyCredential from `navigator.credentials.create()`, as JSON.",
  });

export const authenticationResponseInput = z
  .object({
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    response: z.looseObject({
      clientDataJSON: b64url(8192),
      authenticatorData: b64url(8192),
      signature: b64url(8192),
      userHandle: b64url(512).optional(),
    }),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensionResults,
  })
  .meta({
    id: 'PasskeyAuthenticationResponse',
    description: "The browser's PublicKeyCredential from `navigator.credentials.get()`, as JSON.",
  });

export const challengeIdInput = uuidParam().meta({
  description: 'The `challengeId` of the options this response answers.',
});

/** A fresh assertion: the `challengeId` of options from the matching options route and the browser's answer. */
export const passkeyAssertionInput = z
  .object({ challengeId: challengeIdInput, response: authenticationResponseInput })
  .strict();

const passkeyName = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .meta({ description: '1–60 characters, the member’s own label.', example: 'Laptop' });

export const passkeyOptionsInput = z
  .object({
    purpose: z.enum(['register', 'confirm']).default('register').meta({
      description:
        '`register` (default): options for `navigator.credentials.create()` to add a passkey. `confirm`: options for `navigator.credentials.get()` limited to this account’s passkeys, to prove presence when removing one.',
    }),
  })
  .strict()
  .meta({ examples: [{ purpose: 'register' }] });

const looseOptions = z.looseObject({ challenge: z.string() }).meta({
  description:
    'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON: hand it to the browser as it is.',
});

export const passkeyOptionsOutput = z
  .object({
    challengeId: z.string().meta({ description: 'Send it back with the response; valid once, for 5 minutes.' }),
    options: looseOptions,
  })
  .meta({ id: 'PasskeyOptions' });

export const createPasskeyInput = z
  .object({ name: passkeyName, challengeId: challengeIdInput, response: registrationResponseInput })
  .strict()
  .meta({
    examples: [
      {
        name: 'Laptop',
        challengeId: '3f1c9a52-7b4e-4c1d-9a2e-5b8f0c6d7e21',
        response: {
          id: 'q83vEjRWeJA',
          rawId: 'q83vEjRWeJA',
          type: 'public-key',
          response: {
            clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
            attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ',
            transports: ['internal'],
          },
          authenticatorAttachment: 'platform',
          clientExtensionResults: {},
        },
      },
    ],
  });

export const passkeyOutput = z
  .object({
    _id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: 'Last sign-in or confirmation with it; null: never.' }),
  })
  .meta({ id: 'Passkey', description: 'A passkey of the caller. Key material is never returned.' });

export const passkeyListOutput = listEnvelope(passkeyOutput);
export const passkeyIdInput = z.object({ id: uuidParam() });
export const renamePasskeyInput = z
  .object({ id: uuidParam(), name: passkeyName })
  .strict()
  .meta({ examples: [{ id: '8d2f4b1e-3c5a-4e7f-9b0d-1a2c3e4f5a6b', name: 'Work laptop' }] });

export const removePasskeyInput = z
  .object({
    id: uuidParam(),
    password: z.string().max(256).optional().meta({ description: "The account's password (accounts that have one)." }),
    passkey: passkeyAssertionInput.optional().meta({
      description:
        'A fresh assertion with any of the account’s passkeys (options: POST /api/me/passkeys/options `{ purpose: "confirm" }`).',
    }),
  })
  .strict()
  .refine((v) => (v.password === undefined) !== (v.passkey === undefined), {
    message: 'Send exactly one of password and passkey.',
  })
  .meta({
    oneOf: [{ required: ['password'] }, { required: ['passkey'] }],
    examples: [{ id: '8d2f4b1e-3c5a-4e7f-9b0d-1a2c3e4f5a6b', password: 'correct horse battery staple' }],
  });

export const signInOptionsInput = z
  .object({
    ticket: z.string().min(1).max(64).optional().meta({
      description:
        'The `secondFactor.ticket` of a sign-in, to answer it with a passkey: the options then name the account’s passkeys and the challenge works only for that ticket.',
    }),
  })
  .strict()
  .meta({ examples: [{}] });
export const passkeyLoginInput = passkeyAssertionInput.meta({
  examples: [
    {
      challengeId: '3f1c9a52-7b4e-4c1d-9a2e-5b8f0c6d7e21',
      response: {
        id: 'q83vEjRWeJA',
        rawId: 'q83vEjRWeJA',
        type: 'public-key',
        response: {
          clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
          authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
          signature: 'MEUCIQDx3c2V0dGxlZA',
          userHandle: 'AAECAwQFBgcICQoLDA0ODw',
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      },
    },
  ],
});

/** What the options routes answer: the library's options JSON, passed through as it is. */
export type OptionsJSON = z.infer<typeof looseOptions>;
export type RegistrationResponseInput = z.infer<typeof registrationResponseInput>;
export type AuthenticationResponseInput = z.infer<typeof authenticationResponseInput>;
