/** undici's own modules (CommonJS), which the package types only through its index. */
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: typeof import('undici').Pool;
  export default Pool;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: typeof import('undici').Dispatcher;
  export default Dispatcher;
}
declare module 'undici/lib/api/api-request.js' {
  const request: import('undici').Dispatcher['request'];
  export default request;
}
declare module 'undici/lib/core/connect.js' {
  const buildConnector: typeof import('undici').buildConnector;
  export default buildConnector;
}
declare module 'undici/lib/core/errors.js' {
  export const ConnectTimeoutError: typeof import('undici').errors.ConnectTimeoutError;
  export const HeadersTimeoutError: typeof import('undici').errors.HeadersTimeoutError;
  export const BodyTimeoutError: typeof import('undici').errors.BodyTimeoutError;
}
