// A sign-in's answer as the session it must be: accounts without a second factor get
// `{ token, user, expiresAt }`; a `{ secondFactor }` ticket here fails the test.
export function granted<T extends object>(result: T): Extract<T, { token: string }> {
  if (!('token' in result)) throw new Error(`expected a session, got ${JSON.stringify(Object.keys(result))}`);
  return result as Extract<T, { token: string }>;
}
