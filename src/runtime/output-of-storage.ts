/**
 * The output a run names when a program hands it a lake's storage (openS3Lake). Before, an
 * `outputDir` of another s3:// lake was named in the run's lines, the rejected records' path and the
 * reset command it suggests, while the run wrote into the storage's lake; without one it named `output`.
 * A local folder beside the storage stays allowed (tests give a host's scratch folder).
 */
import { ConfigError } from '../core/errors.js';
import { isS3Url, parseS3Url, s3Root } from '../core/s3-url.js';

export function outputOfStorage(root: string, named: string | undefined): string {
  if (named === undefined) return root;
  if (!isS3Url(named) || s3Root(parseS3Url(named)) === root) return named;
  throw new ConfigError(
    `output ${named} is not the lake its storage opens (${root}): the run would write into ${root} and name ${named} in its lines`,
    {},
    undefined,
    `give outputDir: '${root}', or open the lake of ${named} (openS3Lake)`,
  );
}
