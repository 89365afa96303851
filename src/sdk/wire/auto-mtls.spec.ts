import { createPrivateKey, X509Certificate } from 'node:crypto';
import { derToPem, generateEphemeralCert } from './auto-mtls';

describe('generateEphemeralCert (AutoMTLS certificate)', () => {
  const cert = generateEphemeralCert(new Date('2026-01-02T03:04:05Z'));
  const x509 = new X509Certificate(cert.certPem);

  it('is a self-signed CA for localhost, usable for server and client auth, valid for 30 years', () => {
    expect(x509.subject).toContain('CN=localhost');
    expect(x509.issuer).toBe(x509.subject);
    expect(x509.ca).toBe(true);
    expect(x509.subjectAltName).toBe('DNS:localhost');
    expect(x509.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(new Date(x509.validFrom).getTime()).toBeLessThan(Date.parse('2026-01-02T03:04:05Z'));
    expect(new Date(x509.validTo).getUTCFullYear()).toBe(2056);
  });

  it('pairs with its private key and round-trips between DER and PEM', () => {
    expect(x509.checkPrivateKey(createPrivateKey(cert.keyPem))).toBe(true);
    expect(x509.checkPrivateKey(createPrivateKey(generateEphemeralCert().keyPem))).toBe(false);
    expect(derToPem(cert.certDer)).toBe(cert.certPem);
  });

  it('is new every time', () => {
    expect(generateEphemeralCert().certPem).not.toBe(cert.certPem);
  });
});
