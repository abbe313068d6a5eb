// Vitest setup file: runs before every test file, so its hooks wrap each file's own. Gives the
// file its own database state (see database.ts); hooks run in stack order, so the drop comes
// after the file's own afterAll has closed its connections.
import { afterAll, beforeAll } from 'vitest';
import { dropFileDatabase, prepareFileDatabase } from './database.js';

beforeAll(prepareFileDatabase);
afterAll(dropFileDatabase);
