import { formatHandshake, parseHandshake } from './handshake';

describe('go-plugin handshake line', () => {
  const cert = Buffer.alloc(300, 7);

  it('round-trips a unix endpoint with a certificate (base64 without padding)', () => {
    const line = formatHandshake({ network: 'unix', address: '/tmp/x/plugin.sock', certDer: cert });
    expect(line).toMatch(/^1\|1\|unix\|\/tmp\/x\/plugin\.sock\|grpc\|[A-Za-z0-9+/]+$/);
    expect(parseHandshake(line + '\n')).toEqual({ network: 'unix', address: '/tmp/x/plugin.sock', certDer: cert });
  });

  it('reads an empty or short certificate field as plaintext, and accepts tcp and a 7th field', () => {
    expect(parseHandshake('1|1|tcp|127.0.0.1:1234|grpc|')).toEqual({
      network: 'tcp',
      address: '127.0.0.1:1234',
      certDer: undefined,
    });
    expect(parseHandshake('1|1|unix|/s|grpc|c2hvcnQ|true').certDer).toBeUndefined();
  });

  it.each([
    ['hello world', /not a go-plugin handshake line/],
    ['2|1|unix|/s|grpc|', /unsupported core protocol version "2"/],
    ['1|2|unix|/s|grpc|', /unsupported plugin protocol version "2"/],
    ['1|1|udp|/s|grpc|', /unsupported network "udp"/],
    ['1|1|unix|/s', /speaks "netrpc", awf speaks only grpc/],
    ['1|1|unix||grpc|', /no address/],
  ])('rejects %j', (line, error) => {
    expect(() => parseHandshake(line)).toThrow(error);
  });
});
