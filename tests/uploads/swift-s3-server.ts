// A real S3-protocol server for the tests that need what s3rver lacks: OpenStack Swift (Debian
// packages swift-proxy, swift-account, swift-container, swift-object; .ci/run installs them) with
// its s3api middleware and tempauth. Unlike s3rver it verifies SigV4 signatures, presigned URLs
// included (signed headers such as Content-Type and Content-Length, and the expiry), and it has
// the whole multipart API @tus/s3-store uses (ListParts, AbortMultipartUpload).
//
// Each call starts a private cluster in a temporary directory: one-partition rings with one
// device, the four servers on free ports of 127.0.0.1 (single process each, `workers = 0`), and
// a bucket. Starting takes ~3 s.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/bin';
export const SWIFT_INSTALL_HINT =
  'apt-get install --no-install-recommends swift-proxy swift-account swift-container swift-object (see .ci/run)';

/** True when the Swift servers are installed (Debian packages). */
export function swiftInstalled(): boolean {
  return ['swift-proxy-server', 'swift-account-server', 'swift-container-server', 'swift-object-server'].every((name) =>
    existsSync(join(BIN, name)),
  );
}

export interface SwiftS3 {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSwiftS3(bucket: string): Promise<SwiftS3> {
  if (!swiftInstalled()) throw new Error(`OpenStack Swift is not installed: ${SWIFT_INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'swift-s3-'));
  const devices = join(dir, 'srv');
  mkdirSync(join(devices, 'd1'), { recursive: true });
  const [proxyPort, ...backendPorts] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const backends = { account: backendPorts[0]!, container: backendPorts[1]!, object: backendPorts[2]! };
  // The servers would otherwise drop privileges to a `swift` user that cannot write here.
  const user = userInfo().username;
  writeFileSync(
    join(dir, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = test\nswift_hash_path_prefix = test\n' +
      '[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
  );
  const common = (port: number) =>
    `[DEFAULT]\nbind_ip = 127.0.0.1\nbind_port = ${port}\nswift_dir = ${dir}\nuser = ${user}\nworkers = 0\nlog_level = WARNING\n`;
  for (const [kind, port] of Object.entries(backends))
    writeFileSync(
      join(dir, `${kind}.conf`),
      `${common(port)}devices = ${devices}\nmount_check = false\n` +
        `[pipeline:main]\npipeline = ${kind}-server\n[app:${kind}-server]\nuse = egg:swift#${kind}\n`,
    );
  // The three rings in one Python start (swift-ring-builder would take nine, seconds each on a busy machine).
  execFileSync(join(BIN, 'python3'), [
    '-c',
    [
      'import json, sys',
      'from swift.common.ring import RingBuilder',
      'for name, port in json.loads(sys.argv[2]).items():',
      '    builder = RingBuilder(0, 1, 1)',
      "    builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': port, 'device': 'd1', 'weight': 1})",
      '    builder.rebalance()',
      "    builder.get_ring().save(f'{sys.argv[1]}/{name}.ring.gz')",
    ].join('\n'),
    dir,
    JSON.stringify(backends),
  ]);
  writeFileSync(
    join(dir, 'proxy.conf'),
    `${common(proxyPort!)}` +
      '[pipeline:main]\n' +
      'pipeline = catch_errors gatekeeper proxy-logging cache s3api tempauth copy slo dlo proxy-logging proxy-server\n' +
      '[filter:catch_errors]\nuse = egg:swift#catch_errors\n' +
      '[filter:gatekeeper]\nuse = egg:swift#gatekeeper\n' +
      '[filter:proxy-logging]\nuse = egg:swift#proxy_logging\n' +
      // tempauth insists on a memcache client being configured; none has to answer (nothing is cached then).
      '[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:9\n' +
      '[filter:s3api]\nuse = egg:swift#s3api\nlocation = us-east-1\n' +
      // S3 access key `test:tester`, secret `testing`.
      '[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = testing .admin\n' +
      '[filter:copy]\nuse = egg:swift#copy\n' +
      '[filter:slo]\nuse = egg:swift#slo\n' +
      '[filter:dlo]\nuse = egg:swift#dlo\n' +
      '[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\nallow_account_management = true\n',
  );
  const children: ChildProcess[] = [];
  const output: string[] = [];
  for (const kind of ['account', 'container', 'object', 'proxy'] as const) {
    // --verbose logs to stderr (there is no syslog here); kept for the error message if startup fails.
    const child = spawn(join(BIN, `swift-${kind}-server`), [join(dir, `${kind}.conf`), '--verbose'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (output.length < 200) output.push(`${kind}: ${chunk.toString()}`);
    });
    children.push(child);
  }
  const close = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };

  const endpoint = `http://127.0.0.1:${proxyPort}`;
  const credentials = { accessKeyId: 'test:tester', secretAccessKey: 'testing' };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials,
    maxAttempts: 1,
  });
  // Ready when the bucket can be created (proxy up, and the account and container servers behind it).
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      break;
    } catch (error) {
      if ((error as Error).name === 'InvalidBucketName') throw error;
      if (Date.now() > deadline) {
        await close();
        throw new Error(`Swift did not start: ${(error as Error).message}\n${output.join('')}`);
      }
      await sleep(200);
    }
  }
  return { endpoint, region: 'us-east-1', bucket, ...credentials, client, close };
}
