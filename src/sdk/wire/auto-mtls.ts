import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * go-plugin's AutoMTLS: each side makes a throwaway self-signed certificate (CN and SAN
 * `localhost`, usable for server and client auth, its own CA) and trusts exactly the
 * peer's. Node's crypto cannot issue X.509 certificates, so the few DER structures
 * needed are encoded here rather than pulling in a certificate library (see the ADR).
 */
export interface EphemeralCert {
  certPem: string;
  certDer: Buffer;
  keyPem: string;
}

const VALID_YEARS = 30;

export function generateEphemeralCert(now = new Date()): EphemeralCert {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8('localhost'))), set(seq(oid('2.5.4.10'), utf8('awf'))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime());
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + VALID_YEARS);
  const sigAlg = seq(oid('1.2.840.10045.4.3.2'));
  const extensions = seq(
    extension('2.5.29.19', true, seq(tlv(0x01, Buffer.from([0xff])))),
    // digitalSignature, keyEncipherment, keyAgreement, keyCertSign
    extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0xac]))),
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))),
    extension('2.5.29.17', false, seq(tlv(0x82, Buffer.from('localhost', 'ascii')))),
  );
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    sigAlg,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certDer = seq(tbs, sigAlg, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { certDer, certPem: derToPem(certDer), keyPem };
}

export function derToPem(der: Buffer): string {
  const body =
    der
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n') ?? '';
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const seq = (...parts: Buffer[]): Buffer => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]): Buffer => tlv(0x31, Buffer.concat(parts));
const utf8 = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));

function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050.
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii'))
    : tlv(0x18, Buffer.from(iso, 'ascii'));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}
