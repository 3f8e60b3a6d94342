import fs from 'node:fs';
import path from 'node:path';

/** The folder holding package.json and prisma/, above src (ts-jest) or dist/src (built). */
export const packageRoot: string = (() => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'prisma'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json with prisma/ above ${__dirname}`);
  }
})();
