/**
 * Keys that would put a token in a pipeline file (`token:`, `tokens:`, `apiKey:` ...). A pipeline
 * file is meant to be committed and shared, so none is accepted anywhere in it, and the message
 * says where tokens go instead of only "unknown key".
 */
const SECRET_KEY = /^(api[-_]?)?(tokens?|keys?|secrets?)(file)?$|^(api[-_]?)?(token|key)s?[-_]?(list|pool)$/i;

export const TOKENS_GO_ELSEWHERE =
  'tokens never go in a pipeline file: set QUOTELAKE_TOKEN (or --token) for one token, or QUOTELAKE_TOKENS=token:plan,token:plan or --tokens-file (a secrets file outside the project, chmod 600) for several';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}
