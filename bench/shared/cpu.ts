// CPU accounting for benchmarks that run everything on one machine: the server processes, the
// PostgreSQL backends serving the bench database, the load generator (this process) and the
// whole machine (so "other" = whatever else ran: on a shared machine, the noise).
import { readFileSync } from 'node:fs';
import type postgres from 'postgres';

const TICK_MS = 10; // /proc counts CPU in clock ticks of 1/100 s

/** CPU ms a process has used (user + system), from /proc/<pid>/stat; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** Busy CPU ms of the whole machine (all cores, everything but idle and iowait), from /proc/stat. */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number) as number[];
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_MS;
}

/** CPU ms of every backend connected to a database, by pid (same machine as PostgreSQL). */
export async function postgresCpuMs(admin: postgres.Sql, database: string): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database}`;
  return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)]));
}

function backendsDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export interface CpuUse {
  /** CPU ms over the interval. */
  servers: number;
  postgres: number;
  loadGenerator: number;
  /** Everything else on the machine (other users' work). */
  other: number;
  wallMs: number;
}

/** Starts measuring; the returned function ends the interval and answers the CPU used in it. */
export async function cpuMeter(admin: postgres.Sql, database: string, serverPids: number[]) {
  const servers0 = serverPids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const postgres0 = await postgresCpuMs(admin, database);
  const self0 = process.cpuUsage();
  const machine0 = machineBusyMs();
  const wall0 = performance.now();
  return async (): Promise<CpuUse> => {
    const wallMs = performance.now() - wall0;
    const machine = machineBusyMs() - machine0;
    const self = process.cpuUsage(self0);
    const loadGenerator = (self.user + self.system) / 1000;
    const servers = serverPids.reduce((sum, pid) => sum + processCpuMs(pid), 0) - servers0;
    const postgres = backendsDelta(postgres0, await postgresCpuMs(admin, database));
    return {
      servers,
      postgres,
      loadGenerator,
      other: Math.max(0, machine - servers - postgres - loadGenerator),
      wallMs,
    };
  };
}

/** Cores kept busy on average over the interval. */
export const cores = (ms: number, wallMs: number) => ms / wallMs;
