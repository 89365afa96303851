import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AWF_VERSION } from '../../version';
import { SCHEMAS } from './openapi-schemas';
import { DOCS_PATHS } from './request-security';

/**
 * The OpenAPI 3.1 document of the API, made from the routes Nest registered and the
 * decorators next to them (openapi.decorators.ts).
 */
export function apiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('awf serve')
    .setDescription(
      "AWF's HTTP API as awf serves it: start workflows, follow their events, answer approvals, read the " +
        'run history. Every success body is `{"body": …}`; every failure an RFC 7807 problem. docs/serve.md ' +
        'has the details.',
    )
    .setVersion(AWF_VERSION)
    .setLicense('MIT', 'https://spdx.org/licenses/MIT.html')
    .addSecurity('token', {
      type: 'http',
      scheme: 'bearer',
      description: 'A token of AWF_API_TOKEN or --token-file; asked only when the server has tokens.',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components = { ...document.components, schemas: { ...SCHEMAS, ...document.components?.schemas } };
  return document;
}

/**
 * Serves the document as JSON and YAML and Swagger UI at /docs from the swagger-ui-dist files
 * in node_modules: no CDN, and no call to the online validator (`validatorUrl: null`).
 */
export function serveApiDocs(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATHS.page, app, () => apiDocument(app), {
    jsonDocumentUrl: DOCS_PATHS.json,
    yamlDocumentUrl: DOCS_PATHS.yaml,
    customSiteTitle: 'awf serve: API',
    swaggerOptions: { validatorUrl: null, persistAuthorization: false },
  });
}
