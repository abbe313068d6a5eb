// Whether a Docker engine answers: then the test run starts a PostGIS container (global-setup.ts)
// and runs as on PostgreSQL (vitest.config.ts). TESTCONTAINERS=0 turns that off.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export async function dockerAnswers(): Promise<boolean> {
  if (process.env.TESTCONTAINERS === '0') return false;
  try {
    await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5000 });
    return true;
  } catch {
    return false; // no docker CLI, or only the client with no engine behind it
  }
}
