/**
 * Export tarballs on disk, under `<data dir>/exports/{realm_id}/{token}/zulip-export-{token}.tar.gz`:
 * the files are laid out in a scratch directory, packed with node-tar, and renamed into place,
 * so that a tarball is either whole or absent.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { create } from 'tar';

export interface ExportEntry {
  name: string;
  data: Buffer;
}

export class ExportFiles {
  constructor(readonly root: string) {}

  /** Packs `entries` into a new tarball; returns its name below the root. */
  async write(realmId: number, entries: readonly ExportEntry[]): Promise<string> {
    const token = randomBytes(16).toString('hex');
    const top = `zulip-export-${token}`;
    const scratch = join(this.root, 'tmp', token);
    try {
      for (const entry of entries) {
        const path = join(scratch, top, entry.name);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, entry.data);
      }
      const name = `${realmId}/${token}/${top}.tar.gz`;
      const final = join(this.root, name);
      await mkdir(dirname(final), { recursive: true });
      await create({ gzip: true, file: `${final}.partial`, cwd: scratch, portable: true }, [top]);
      await rename(`${final}.partial`, final);
      return name;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private pathOf(name: string): string | undefined {
    const path = normalize(join(this.root, name));
    return path.startsWith(this.root + sep) && !name.includes('..') ? path : undefined;
  }

  async read(name: string): Promise<Buffer | undefined> {
    const path = this.pathOf(name);
    if (!path) return undefined;
    try {
      return await readFile(path);
    } catch {
      return undefined;
    }
  }

  async remove(name: string): Promise<void> {
    const path = this.pathOf(name);
    if (path) await rm(dirname(path), { recursive: true, force: true });
  }
}
