// PostGIS for the embedded database, without the parts this service never loads. The stock
// extension (@electric-sql/pglite-postgis) hands PGlite a 20 MB bundle that unpacks to 90 MB:
// PGlite keeps every file in its in-memory file system and compiles and instantiates every
// shared library in it at start (postgis-3, postgis_raster-3, postgis_topology-3: 48 MB of
// WebAssembly), whether or not a database ever creates those extensions. Measured on a warm start
// (bench/README.md, "Start time and memory"): ~2 s and ~300 MB of RSS.
//
// Here only postgis-3.so, the `postgis` extension's control and SQL scripts (install and upgrade
// to this version; not the pre-extension "unpackaged" one) and PROJ's data go in, written into
// PGlite's file system before PostgreSQL starts; the library is loaded when PostgreSQL first
// opens it (CREATE EXTENSION or the first PostGIS function call of a session), as on a server.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Extension } from '@electric-sql/pglite';

/** Where PGlite puts what an extension bundle holds (its WASM_PREFIX). */
const PREFIX = '/pglite';

/** The files of the stock bundle PostGIS (the `postgis` extension alone) needs at run time. */
export function neededPostgisFile(name: string): boolean {
  if (name === 'lib/postgresql/postgis-3.so') return true;
  if (name.startsWith('share/proj/')) return true; // proj.db: ST_Transform, geography's spheroid
  const script = /^share\/postgresql\/extension\/postgis(\.control|--.*\.sql)$/.exec(name);
  return script !== null && !name.includes('--unpackaged--');
}

interface TarFile {
  name: string;
  data: Uint8Array;
}

/** The regular files of a ustar archive (the stock bundle's format). */
export function untar(archive: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  const decoder = new TextDecoder();
  const field = (at: number, length: number) => {
    const bytes = archive.subarray(at, at + length);
    const end = bytes.indexOf(0);
    return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  let longName: string | undefined;
  for (let at = 0; at + 512 <= archive.length; ) {
    const name = field(at, 100);
    if (!name) break; // the two zero blocks that end the archive
    const size = Number.parseInt(field(at + 124, 12).trim() || '0', 8);
    const type = field(at + 156, 1);
    const prefix = field(at + 345, 155);
    const data = archive.subarray(at + 512, at + 512 + size);
    if (type === 'L') longName = decoder.decode(data).replace(/\0+$/, '');
    else {
      if (type === '0' || type === '') files.push({ name: longName ?? (prefix ? `${prefix}/${name}` : name), data });
      longName = undefined;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The stock bundle inside @electric-sql/pglite-postgis (found next to its entry point). */
function stockBundlePath(): string {
  return path.join(
    path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite-postgis')),
    'postgis.tar.gz',
  );
}

/**
 * The files PostGIS needs, each in a buffer of its own (so the 90 MB unpacked archive is garbage
 * at once, not kept alive by views into it). Read for each PGlite instance, not kept: ~0.3 s of
 * gunzip per start is cheaper than 40 MB held twice for the life of the server.
 */
function neededFiles(): TarFile[] {
  return untar(gunzipSync(readFileSync(stockBundlePath())))
    .filter((file) => neededPostgisFile(file.name))
    .map((file) => ({ name: file.name, data: file.data.slice() }));
}

interface EmscriptenFs {
  mkdirTree(path: string): void;
  writeFile(path: string, data: Uint8Array, options?: { canOwn?: boolean }): void;
}

/** Drop-in for `postgis` of @electric-sql/pglite-postgis: `PGlite.create({ extensions: { postgis } })`. */
export const postgis: Extension = {
  name: 'postgis',
  setup: async (_pg, emscriptenOpts) => {
    const files = neededFiles();
    // As the stock extension sets them (GDAL's switches only matter to postgis_raster).
    const env = emscriptenOpts.PGLITE_ENV as Record<string, string | number>;
    env.POSTGIS_GDAL_ENABLED_DRIVERS = 'ENABLE_ALL';
    env.POSTGIS_ENABLE_OUTDB_RASTERS = 1;
    env.PROJ_DATA = `${PREFIX}/share/proj`;
    const writeFiles = (module: { FS: EmscriptenFs }) => {
      for (const file of files) {
        const target = `${PREFIX}/${file.name}`;
        module.FS.mkdirTree(target.slice(0, target.lastIndexOf('/')));
        module.FS.writeFile(target, file.data, { canOwn: true }); // no second copy
      }
      files.length = 0;
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), writeFiles] } };
  },
};
