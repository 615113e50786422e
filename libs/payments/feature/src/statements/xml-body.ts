import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';

// Bank statements are uploaded as the raw XML file: read application/xml (and text/xml) bodies
// as a string. Only this service accepts them; the parser decides what the string is worth.
@Injectable()
export class XmlBodyParser implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    for (const type of ['application/xml', 'text/xml']) {
      if (!fastify.hasContentTypeParser(type)) {
        fastify.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body));
      }
    }
  }
}
