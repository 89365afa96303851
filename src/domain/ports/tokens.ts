/** DI tokens for the ports. Symbols, so two modules can never clash by accident. */
export { APP_LOGGER } from './app-logger.port';
export const TOOL_ROUTER_FACTORY = Symbol.for('awf.ToolRouterFactory');
export const SECRET_MASKER = Symbol.for('awf.SecretMasker');
