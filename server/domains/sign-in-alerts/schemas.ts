// "This was not me": the input and answer of POST /api/auth/not-me.
import { z } from 'zod';

export const notMeInput = z
  .object({ token: z.string().min(1).max(128).meta({ description: "The token of the alert mail's link." }) })
  .strict()
  .meta({ examples: [{ token: 'mk3q7x2v5n4p6r8t2w4y6z3b5d7f9h2j4l6n8p3r5t7v9x2z4b6d8f' }] });

export const notMeNextSteps = ['sign_in_by_mail', 'change_password', 'enroll_second_factor'] as const;

export const notMeOutput = z
  .object({
    ok: z.literal(true),
    revokedSessions: z.number().int().meta({ description: 'Sessions signed out (every one the account had).' }),
    next: z.array(z.enum(notMeNextSteps)).meta({
      description:
        'What the member should do now, in order: sign in again by a mailed link (the password may be known), change the password (when the account has one), enrol a second factor.',
    }),
  })
  .strict()
  .meta({ id: 'NotMeResult' });
