// The only place the SDK touches the server: a TYPE import, erased at build time, so no server
// code reaches an app's bundle. The built package ships the server's declaration files instead.
export type { AppRouter } from '../../server/composition.js';
