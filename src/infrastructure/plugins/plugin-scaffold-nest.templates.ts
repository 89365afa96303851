import { projectFiles, readme, type ScaffoldVars } from './plugin-scaffold.templates';

/**
 * `awf plugin init --nest`: the plugin as a Nest microservice on @nestjs/microservices' gRPC
 * transport. A controller answers plugin.v1 with `@GrpcMethod` handlers; the operations are
 * built with the services Nest injects; the SDK's `goPluginTransport` does the go-plugin part.
 */
export function nestScaffoldFiles(v: ScaffoldVars): Record<string, string> {
  const files = projectFiles({
    ...v,
    testFile: 'dist/operations.test.js',
    compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true },
  });
  return {
    ...files,
    'plugin.yaml': files['plugin.yaml'].replace('node dist/plugin.js', 'node dist/main.js'),
    'src/greeter.service.ts': `import { Injectable } from '@nestjs/common';

/** An ordinary Nest provider: what your operations need (a client, a repository) goes here. */
@Injectable()
export class GreeterService {
  greet(name: string): string {
    return \`Hello, \${name}!\`;
  }
}
`,
    'src/operations.ts': `import { definePlugin } from 'awf/plugin-sdk';
import type { GreeterService } from './greeter.service';

/** Each operation becomes the MCP tool ${v.name}_<operation> when a step exposes it. */
export function operations(greeter: GreeterService) {
  // Its name, version and description are in plugin.yaml, read when the plugin starts.
  return definePlugin({
    operations: {
      greet: {
        description: 'Greets someone by name.',
        inputs: { name: { type: 'string', description: 'Who to greet.', required: true } },
        outputs: { greeting: { type: 'string', description: 'The greeting.' } },
        run: ({ name }) => ({ greeting: greeter.greet(String(name)) }),
      },
    },
  });
}
`,
    'src/plugin.controller.ts': `import type { ServerUnaryCall } from '@grpc/grpc-js';
import { Controller } from '@nestjs/common';
import { GrpcMethod, RpcException } from '@nestjs/microservices';
import { type ExecuteRequestMessage, type InitRequestMessage, PluginHandlers, rpcError } from 'awf/plugin-sdk';
import { GreeterService } from './greeter.service';
import { operations } from './operations';

/** plugin.v1 as gRPC methods: PluginHandlers checks inputs and runs the operations. */
@Controller()
export class PluginController {
  private readonly handlers: PluginHandlers;

  constructor(greeter: GreeterService) {
    this.handlers = new PluginHandlers(operations(greeter));
  }

  @GrpcMethod('PluginService', 'GetInfo')
  getInfo() {
    return this.handlers.getInfo();
  }

  @GrpcMethod('PluginService', 'Init')
  init(request: InitRequestMessage) {
    return rpc(() => this.handlers.init(request));
  }

  @GrpcMethod('PluginService', 'Shutdown')
  shutdown() {
    return rpc(() => this.handlers.shutdown());
  }

  @GrpcMethod('OperationService', 'ListOperations')
  listOperations() {
    return this.handlers.listOperations();
  }

  @GrpcMethod('OperationService', 'GetOperation')
  getOperation(request: { name?: string }) {
    return rpc(() => this.handlers.getOperation(request));
  }

  @GrpcMethod('OperationService', 'Execute')
  execute(request: ExecuteRequestMessage, _metadata: unknown, call: ServerUnaryCall<unknown, unknown>) {
    const cancelled = new AbortController();
    call.on('cancelled', () => cancelled.abort());
    return this.handlers.execute(request, cancelled.signal);
  }
}

/** Nest answers a thrown Error with "Internal server error"; an RpcException keeps the code and the reason. */
async function rpc<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new RpcException(rpcError(err));
  }
}
`,
    'src/plugin.module.ts': `import { Module } from '@nestjs/common';
import { GreeterService } from './greeter.service';
import { PluginController } from './plugin.controller';

@Module({ controllers: [PluginController], providers: [GreeterService] })
export class PluginModule {}
`,
    'src/main.ts': `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { goPluginTransport } from 'awf/plugin-sdk';
import { PluginModule } from './plugin.module';

async function main(): Promise<void> {
  // Checks that awf started us, makes the socket and the TLS credentials: before Nest starts.
  const transport = goPluginTransport();
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(PluginModule, {
    transport: Transport.GRPC,
    options: transport.grpcOptions,
    // Log lines go to stderr (stdout is the handshake's), which awf logs under the plugin's name.
    logger: ['error', 'warn'],
  });
  await app.listen();
  transport.announce(app);
}

void main();
`,
    'src/operations.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invoke } from 'awf/plugin-sdk';
import { GreeterService } from './greeter.service';
import { operations } from './operations';

test('greet greets by name', async () => {
  const result = await invoke(operations(new GreeterService()), 'greet', { name: 'Ada' });
  assert.deepEqual(result, { success: true, output: '', data: { greeting: 'Hello, Ada!' }, error: '' });
});

test('greet refuses a call without a name', async () => {
  const result = await invoke(operations(new GreeterService()), 'greet', {});
  assert.equal(result.success, false);
  assert.match(result.error, /name is required/);
});
`,
    'README.md': readme(
      v,
      'It is a Nest microservice on the gRPC transport: `src/plugin.controller.ts` answers awf, ' +
        '`src/operations.ts` holds the operations, built with the services Nest injects.',
    ),
  };
}
