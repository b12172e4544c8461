import { Module } from '@nestjs/common';
import { OPENAPI_DOCUMENT, OpenApiController, OpenApiDocumentHolder } from './openapi.controller';

@Module({
  controllers: [OpenApiController],
  providers: [{ provide: OPENAPI_DOCUMENT, useValue: new OpenApiDocumentHolder() }],
  exports: [OPENAPI_DOCUMENT],
})
export class OpenApiModule {}
