/**
 * go-plugin's handshake, as AWF configures it: the host sets a magic cookie and the
 * protocol versions it speaks; the plugin answers with one stdout line
 * `CORE|APP|NETWORK|ADDR|PROTOCOL|SERVERCERT`, after it is listening.
 */
export const MAGIC_COOKIE_KEY = 'AWF_PLUGIN';
export const MAGIC_COOKIE_VALUE = 'awf-plugin-v1';
export const CORE_PROTOCOL_VERSION = 1;
export const APP_PROTOCOL_VERSION = 1;

export interface HandshakeEndpoint {
  network: 'unix' | 'tcp';
  address: string;
  /** The plugin's TLS certificate (DER); absent when it serves plaintext. */
  certDer?: Buffer;
}

export function formatHandshake(endpoint: HandshakeEndpoint): string {
  const cert = endpoint.certDer ? endpoint.certDer.toString('base64').replace(/=+$/, '') : '';
  return [CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, endpoint.network, endpoint.address, 'grpc', cert].join('|');
}

/** Parses the plugin's line; throws an Error whose message says what was wrong with it. */
export function parseHandshake(line: string): HandshakeEndpoint {
  const parts = line.trim().split('|');
  if (parts.length < 4) throw new Error(`not a go-plugin handshake line: ${JSON.stringify(truncate(line))}`);
  const [core, app, network, address, protocol, cert] = parts;
  if (core !== String(CORE_PROTOCOL_VERSION))
    throw new Error(`unsupported core protocol version ${JSON.stringify(core)} (want ${CORE_PROTOCOL_VERSION})`);
  if (app !== String(APP_PROTOCOL_VERSION))
    throw new Error(`unsupported plugin protocol version ${JSON.stringify(app)} (want ${APP_PROTOCOL_VERSION})`);
  if (network !== 'unix' && network !== 'tcp') throw new Error(`unsupported network ${JSON.stringify(network)}`);
  if (protocol !== 'grpc')
    throw new Error(`plugin speaks ${JSON.stringify(protocol ?? 'netrpc')}, awf speaks only grpc`);
  if (!address) throw new Error('handshake line has no address');
  // go-plugin treats anything of 50 characters or fewer as "no certificate".
  const certDer = cert && cert.length > 50 ? Buffer.from(cert, 'base64') : undefined;
  return { network, address, certDer };
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
