import { restoreStashedEnv, STASHED_EXTRA_CA_CERTS } from './stashed-env';

describe('restoreStashedEnv', () => {
  it('puts a parked NODE_EXTRA_CA_CERTS back and removes the parking variable', () => {
    const env: Record<string, string | undefined> = { [STASHED_EXTRA_CA_CERTS]: '/etc/corp-ca.pem', PATH: '/bin' };
    restoreStashedEnv(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem', PATH: '/bin' });
  });

  it('never overrides a NODE_EXTRA_CA_CERTS that is set, and does nothing without a parked value', () => {
    const set: Record<string, string | undefined> = { [STASHED_EXTRA_CA_CERTS]: '/old.pem', NODE_EXTRA_CA_CERTS: '/mine.pem' };
    restoreStashedEnv(set);
    expect(set).toEqual({ NODE_EXTRA_CA_CERTS: '/mine.pem' });
    const none: Record<string, string | undefined> = { PATH: '/bin' };
    restoreStashedEnv(none);
    expect(none).toEqual({ PATH: '/bin' });
  });
});
