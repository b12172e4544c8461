import { Language } from '../i18n/language';
import { ErrorCode } from './error-codes';

interface Text {
  title: string;
  detail: string;
}

type Catalog = Record<ErrorCode, Text>;

const en: Catalog = {
  missing_tenant: {
    title: 'Missing X-Tenant',
    detail: 'Every call must carry the X-Tenant header with the church key.',
  },
  invalid_json: { title: 'Invalid JSON', detail: 'The request body is not valid JSON.' },
  invalid_parameter: { title: 'Invalid parameter', detail: 'The query parameter {parameter} is not valid.' },
  invalid_idempotency_key: { title: 'Invalid Idempotency-Key', detail: 'Idempotency-Key must be a UUID v4.' },
  invalid_signature: {
    title: 'Invalid signature',
    detail:
      'The Stripe-Signature header does not match the body, or its timestamp is more than 300 seconds away; nothing was recorded.',
  },
  unauthorized: { title: 'Unauthorized', detail: 'A valid bearer token is required.' },
  token_expired: { title: 'Token expired', detail: 'The token has expired; issue a new one.' },
  token_revoked: { title: 'Token revoked', detail: 'The token has been revoked.' },
  tenant_forbidden: { title: 'Tenant forbidden', detail: 'The token does not belong to this church.' },
  scope_insufficient: { title: 'Insufficient scope', detail: 'This operation needs the scope {scope}.' },
  tenant_inactive: { title: 'Church suspended', detail: 'This church is suspended.' },
  scope_not_allowed: { title: 'Scope not allowed', detail: 'Your role may not hold the scope {scope}.' },
  token_type_not_allowed: {
    title: 'Token type not allowed',
    detail: 'A {token_type} cannot manage credentials: use a personal access token, or a token with admin:*.',
  },
  origin_not_allowed: {
    title: 'Origin not allowed',
    detail: 'The origin {origin} is not on the church CORS allowlist.',
  },
  resource_not_found: { title: 'Not found', detail: 'No {resource} with that id exists.' },
  route_not_found: { title: 'Not found', detail: 'No route matches {method} {path}.' },
  method_not_allowed: { title: 'Method not allowed', detail: 'The method is not allowed on this resource.' },
  not_acceptable: {
    title: 'Not acceptable',
    detail: 'This resource cannot be answered as {media_type}; it answers {available}.',
  },
  idempotency_in_progress: {
    title: 'Request in progress',
    detail: 'A request with this Idempotency-Key is still running; retry shortly.',
  },
  conflict: { title: 'Conflict', detail: '{reason}' },
  payload_too_large: { title: 'Payload too large', detail: 'The request body exceeds the limit of {limit}.' },
  unsupported_media_type: { title: 'Unsupported media type', detail: 'Send the body as application/json.' },
  validation_failed: { title: 'Validation failed', detail: 'The request has invalid fields; see errors.' },
  invalid_webhook_url: {
    title: 'Invalid webhook URL',
    detail: 'The webhook URL must be https and reach a public address ({reason}).',
  },
  idempotency_key_reused: {
    title: 'Idempotency-Key reused',
    detail: 'This Idempotency-Key was used with a different request.',
  },
  public_url_required: {
    title: 'Public URL not set',
    detail:
      'Connecting a payment processor needs the server setting PUBLIC_URL (the API’s public base URL), where the processor sends its events.',
  },
  batch_total_mismatch: {
    title: 'Batch total mismatch',
    detail:
      'The batch expects {expected} but its donations add up to {total} ({currency}, minor units); fix the gifts or the expected total.',
  },
  refund_exceeds_remaining: {
    title: 'Refund exceeds what is left',
    detail: 'Only {remaining} ({currency}, minor units) of this donation is left to refund.',
  },
  event_full: { title: 'Event full', detail: 'The event has no seats left (capacity {capacity}).' },
  event_canceled: {
    title: 'Event canceled',
    detail: 'The event has been canceled; it takes no registrations and cannot be canceled again.',
  },
  already_checked_in: {
    title: 'Already checked in',
    detail: 'Already checked in to this event: {members}. Nothing was recorded.',
  },
  security_code_mismatch: {
    title: 'Wrong security code',
    detail: 'The security code does not match this check-in; nothing was changed.',
  },
  sync_cursor_expired: {
    title: 'Sync cursor expired',
    detail:
      'This cursor is older than the changes kept ({retention_days} days): list the records again, then follow GET /v1/changes/head.',
  },
  merge_invalid: {
    title: 'Merge not possible',
    detail: 'These members cannot be merged: {reason}. Nothing was changed.',
  },
  member_merged: {
    title: 'Member merged',
    detail: 'This member was merged into {merged_into}; use that id (the Location header names it).',
  },
  checkout_locked: {
    title: 'Check-out locked',
    detail: 'Too many wrong security codes for this check-in; check-out is locked for {retry_after} seconds.',
  },
  rate_limited: { title: 'Too many requests', detail: 'Rate limit exceeded; retry after {retry_after} seconds.' },
  internal_error: {
    title: 'Internal error',
    detail: 'Something went wrong on our side. Quote the request id if you contact support.',
  },
  processor_unavailable: {
    title: 'Payment processor unavailable',
    detail: 'The payment processor could not be reached or failed ({reason}); nothing was changed. Retry shortly.',
  },
  service_unavailable: {
    title: 'Service unavailable',
    detail: 'The service is temporarily unavailable; retry shortly.',
  },
};

const es: Catalog = {
  missing_tenant: {
    title: 'Falta el encabezado X-Tenant',
    detail: 'Cada llamada debe llevar el encabezado X-Tenant con la clave de la iglesia.',
  },
  invalid_json: { title: 'JSON no válido', detail: 'El cuerpo de la solicitud no es JSON válido.' },
  invalid_parameter: { title: 'Parámetro no válido', detail: 'El parámetro {parameter} no es válido.' },
  invalid_idempotency_key: { title: 'Idempotency-Key no válida', detail: 'Idempotency-Key debe ser un UUID v4.' },
  invalid_signature: {
    title: 'Firma no válida',
    detail:
      'El encabezado Stripe-Signature no corresponde al cuerpo, o su marca de tiempo difiere en más de 300 segundos; no se registró nada.',
  },
  unauthorized: { title: 'No autorizado', detail: 'Se requiere un token bearer válido.' },
  token_expired: { title: 'Token vencido', detail: 'El token ha vencido; emita uno nuevo.' },
  token_revoked: { title: 'Token revocado', detail: 'El token ha sido revocado.' },
  tenant_forbidden: { title: 'Iglesia no permitida', detail: 'El token no pertenece a esta iglesia.' },
  scope_insufficient: { title: 'Alcance insuficiente', detail: 'Esta operación necesita el alcance {scope}.' },
  tenant_inactive: { title: 'Iglesia suspendida', detail: 'Esta iglesia está suspendida.' },
  scope_not_allowed: { title: 'Alcance no permitido', detail: 'Su rol no puede tener el alcance {scope}.' },
  token_type_not_allowed: {
    title: 'Tipo de token no permitido',
    detail: 'Un {token_type} no puede gestionar credenciales: use un token personal, o un token con admin:*.',
  },
  origin_not_allowed: {
    title: 'Origen no permitido',
    detail: 'El origen {origin} no está en la lista CORS de la iglesia.',
  },
  resource_not_found: { title: 'No encontrado', detail: 'No existe {resource} con ese identificador.' },
  route_not_found: { title: 'No encontrado', detail: 'Ninguna ruta coincide con {method} {path}.' },
  method_not_allowed: { title: 'Método no permitido', detail: 'El método no está permitido en este recurso.' },
  not_acceptable: {
    title: 'No aceptable',
    detail: 'Este recurso no puede responderse como {media_type}; responde {available}.',
  },
  idempotency_in_progress: {
    title: 'Solicitud en curso',
    detail: 'Una solicitud con esta Idempotency-Key sigue en curso; reintente en breve.',
  },
  conflict: { title: 'Conflicto', detail: '{reason}' },
  payload_too_large: { title: 'Cuerpo demasiado grande', detail: 'El cuerpo supera el límite de {limit}.' },
  unsupported_media_type: { title: 'Tipo de contenido no admitido', detail: 'Envíe el cuerpo como application/json.' },
  validation_failed: { title: 'Validación fallida', detail: 'La solicitud tiene campos no válidos; vea errors.' },
  invalid_webhook_url: {
    title: 'URL de webhook no válida',
    detail: 'La URL del webhook debe ser https y llegar a una dirección pública ({reason}).',
  },
  idempotency_key_reused: {
    title: 'Idempotency-Key reutilizada',
    detail: 'Esta Idempotency-Key se usó con otra solicitud.',
  },
  public_url_required: {
    title: 'Falta la URL pública',
    detail:
      'Conectar un procesador de pagos requiere la configuración PUBLIC_URL del servidor (la URL base pública de la API), adonde el procesador envía sus eventos.',
  },
  batch_total_mismatch: {
    title: 'El total del lote no cuadra',
    detail:
      'El lote espera {expected} pero sus donativos suman {total} ({currency}, unidades menores); corrija los donativos o el total esperado.',
  },
  refund_exceeds_remaining: {
    title: 'El reembolso excede lo que queda',
    detail: 'Solo quedan {remaining} ({currency}, unidades menores) de este donativo por reembolsar.',
  },
  event_full: { title: 'Evento lleno', detail: 'El evento no tiene lugares disponibles (cupo {capacity}).' },
  event_canceled: {
    title: 'Evento cancelado',
    detail: 'El evento fue cancelado; no admite inscripciones ni puede cancelarse de nuevo.',
  },
  already_checked_in: {
    title: 'Ya registrado',
    detail: 'Ya tiene asistencia registrada en este evento: {members}. No se registró nada.',
  },
  security_code_mismatch: {
    title: 'Código de seguridad incorrecto',
    detail: 'El código de seguridad no corresponde a este registro de entrada; no se cambió nada.',
  },
  sync_cursor_expired: {
    title: 'Cursor de sincronización vencido',
    detail:
      'Este cursor es anterior a los cambios que se conservan ({retention_days} días): vuelva a listar los registros y siga GET /v1/changes/head.',
  },
  merge_invalid: {
    title: 'Fusión no posible',
    detail: 'Estos miembros no se pueden fusionar: {reason}. No se cambió nada.',
  },
  member_merged: {
    title: 'Miembro fusionado',
    detail: 'Este miembro se fusionó con {merged_into}; use ese identificador (el encabezado Location lo indica).',
  },
  checkout_locked: {
    title: 'Salida bloqueada',
    detail:
      'Demasiados códigos de seguridad incorrectos para este registro; la salida queda bloqueada {retry_after} segundos.',
  },
  rate_limited: { title: 'Demasiadas solicitudes', detail: 'Límite superado; reintente en {retry_after} segundos.' },
  internal_error: {
    title: 'Error interno',
    detail: 'Algo salió mal de nuestro lado. Cite el request id si contacta a soporte.',
  },
  processor_unavailable: {
    title: 'Procesador de pagos no disponible',
    detail:
      'No se pudo contactar al procesador de pagos o este falló ({reason}); no se cambió nada. Reintente en breve.',
  },
  service_unavailable: {
    title: 'Servicio no disponible',
    detail: 'El servicio no está disponible por el momento; reintente en breve.',
  },
};

const pt: Catalog = {
  missing_tenant: {
    title: 'Cabeçalho X-Tenant ausente',
    detail: 'Cada chamada deve levar o cabeçalho X-Tenant com a chave da igreja.',
  },
  invalid_json: { title: 'JSON inválido', detail: 'O corpo da requisição não é JSON válido.' },
  invalid_parameter: { title: 'Parâmetro inválido', detail: 'O parâmetro {parameter} não é válido.' },
  invalid_idempotency_key: { title: 'Idempotency-Key inválida', detail: 'Idempotency-Key deve ser um UUID v4.' },
  invalid_signature: {
    title: 'Assinatura inválida',
    detail:
      'O cabeçalho Stripe-Signature não corresponde ao corpo, ou seu carimbo de tempo difere em mais de 300 segundos; nada foi registrado.',
  },
  unauthorized: { title: 'Não autorizado', detail: 'É necessário um token bearer válido.' },
  token_expired: { title: 'Token expirado', detail: 'O token expirou; emita um novo.' },
  token_revoked: { title: 'Token revogado', detail: 'O token foi revogado.' },
  tenant_forbidden: { title: 'Igreja não permitida', detail: 'O token não pertence a esta igreja.' },
  scope_insufficient: { title: 'Escopo insuficiente', detail: 'Esta operação precisa do escopo {scope}.' },
  tenant_inactive: { title: 'Igreja suspensa', detail: 'Esta igreja está suspensa.' },
  scope_not_allowed: { title: 'Escopo não permitido', detail: 'Seu papel não pode ter o escopo {scope}.' },
  token_type_not_allowed: {
    title: 'Tipo de token não permitido',
    detail: 'Um {token_type} não pode gerenciar credenciais: use um token pessoal, ou um token com admin:*.',
  },
  origin_not_allowed: { title: 'Origem não permitida', detail: 'A origem {origin} não está na lista CORS da igreja.' },
  resource_not_found: { title: 'Não encontrado', detail: 'Não existe {resource} com esse identificador.' },
  route_not_found: { title: 'Não encontrado', detail: 'Nenhuma rota corresponde a {method} {path}.' },
  method_not_allowed: { title: 'Método não permitido', detail: 'O método não é permitido neste recurso.' },
  not_acceptable: {
    title: 'Não aceitável',
    detail: 'Este recurso não pode ser respondido como {media_type}; responde {available}.',
  },
  idempotency_in_progress: {
    title: 'Requisição em andamento',
    detail: 'Uma requisição com esta Idempotency-Key ainda está em andamento; tente novamente em breve.',
  },
  conflict: { title: 'Conflito', detail: '{reason}' },
  payload_too_large: { title: 'Corpo grande demais', detail: 'O corpo excede o limite de {limit}.' },
  unsupported_media_type: { title: 'Tipo de conteúdo não suportado', detail: 'Envie o corpo como application/json.' },
  validation_failed: { title: 'Falha de validação', detail: 'A requisição tem campos inválidos; veja errors.' },
  invalid_webhook_url: {
    title: 'URL de webhook inválida',
    detail: 'A URL do webhook deve ser https e alcançar um endereço público ({reason}).',
  },
  idempotency_key_reused: {
    title: 'Idempotency-Key reutilizada',
    detail: 'Esta Idempotency-Key foi usada com outra requisição.',
  },
  public_url_required: {
    title: 'URL pública não definida',
    detail:
      'Conectar um processador de pagamentos requer a configuração PUBLIC_URL do servidor (a URL base pública da API), para onde o processador envia seus eventos.',
  },
  batch_total_mismatch: {
    title: 'O total do lote não confere',
    detail:
      'O lote espera {expected}, mas suas doações somam {total} ({currency}, unidades menores); corrija as doações ou o total esperado.',
  },
  refund_exceeds_remaining: {
    title: 'O reembolso excede o que resta',
    detail: 'Restam apenas {remaining} ({currency}, unidades menores) desta doação para reembolsar.',
  },
  event_full: { title: 'Evento lotado', detail: 'O evento não tem mais vagas (capacidade {capacity}).' },
  event_canceled: {
    title: 'Evento cancelado',
    detail: 'O evento foi cancelado; não aceita inscrições nem pode ser cancelado de novo.',
  },
  already_checked_in: {
    title: 'Já registrado',
    detail: 'Já tem presença registrada neste evento: {members}. Nada foi registrado.',
  },
  security_code_mismatch: {
    title: 'Código de segurança incorreto',
    detail: 'O código de segurança não corresponde a este check-in; nada foi alterado.',
  },
  sync_cursor_expired: {
    title: 'Cursor de sincronização expirado',
    detail:
      'Este cursor é anterior às mudanças guardadas ({retention_days} dias): liste os registros de novo e siga GET /v1/changes/head.',
  },
  merge_invalid: {
    title: 'Mesclagem impossível',
    detail: 'Estes membros não podem ser mesclados: {reason}. Nada foi alterado.',
  },
  member_merged: {
    title: 'Membro mesclado',
    detail: 'Este membro foi mesclado com {merged_into}; use esse identificador (o cabeçalho Location o indica).',
  },
  checkout_locked: {
    title: 'Check-out bloqueado',
    detail:
      'Códigos de segurança incorretos demais para este check-in; o check-out fica bloqueado por {retry_after} segundos.',
  },
  rate_limited: { title: 'Requisições demais', detail: 'Limite excedido; tente novamente em {retry_after} segundos.' },
  internal_error: {
    title: 'Erro interno',
    detail: 'Algo deu errado do nosso lado. Cite o request id ao contatar o suporte.',
  },
  processor_unavailable: {
    title: 'Processador de pagamentos indisponível',
    detail:
      'Não foi possível contatar o processador de pagamentos ou ele falhou ({reason}); nada foi alterado. Tente novamente em breve.',
  },
  service_unavailable: {
    title: 'Serviço indisponível',
    detail: 'O serviço está indisponível no momento; tente novamente em breve.',
  },
};

export const ERROR_CATALOG: Record<Language, Catalog> = { en, es, pt };

/** Messages for field issues (errors[].issue). Unknown issues fall back to `invalid`. */
export const ISSUE_CATALOG: Record<Language, Record<string, string>> = {
  en: {
    required: 'This field is required.',
    invalid: 'This value is not valid.',
    invalid_format: 'This value does not have the expected format ({format}).',
    invalid_type: 'This value must be of type {type}.',
    too_long: 'At most {max} characters.',
    too_short: 'At least {min} characters.',
    one_of: 'Must be one of: {values}.',
    out_of_range: 'Must be between {min} and {max}.',
    not_found: 'No record matches this reference.',
    unknown_field: 'This field is not recognized.',
    unknown_operator: 'Unknown operator {operator}.',
    not_sortable: 'This field cannot be sorted on; sortable: {values}.',
    not_filterable: 'This field cannot be filtered on.',
    duplicate: 'This value is already taken.',
    too_many: 'At most {max} items.',
    in_future: 'This date cannot be in the future.',
    not_in_options: 'Must be one of the field’s options: {values}.',
    missing: 'This custom field is required.',
    not_allowed: 'Only select fields take options.',
    rejected: 'The payment processor refused this value ({reason}).',
    inactive: 'This fund is archived (active: false) and takes no new gifts.',
    currency_mismatch: 'The batch holds gifts in {currency} only.',
    before_start: 'Must be on or after the start date ({start}).',
    not_after_start: 'Must be after starts_at.',
    not_in_group: 'This member is not in the group.',
  },
  es: {
    required: 'Este campo es obligatorio.',
    invalid: 'Este valor no es válido.',
    invalid_format: 'Este valor no tiene el formato esperado ({format}).',
    invalid_type: 'Este valor debe ser de tipo {type}.',
    too_long: 'Como máximo {max} caracteres.',
    too_short: 'Como mínimo {min} caracteres.',
    one_of: 'Debe ser uno de: {values}.',
    out_of_range: 'Debe estar entre {min} y {max}.',
    not_found: 'Ningún registro coincide con esta referencia.',
    unknown_field: 'Este campo no se reconoce.',
    unknown_operator: 'Operador desconocido {operator}.',
    not_sortable: 'No se puede ordenar por este campo; ordenables: {values}.',
    not_filterable: 'No se puede filtrar por este campo.',
    duplicate: 'Este valor ya está en uso.',
    too_many: 'Como máximo {max} elementos.',
    in_future: 'Esta fecha no puede estar en el futuro.',
    not_in_options: 'Debe ser una de las opciones del campo: {values}.',
    missing: 'Este campo personalizado es obligatorio.',
    not_allowed: 'Solo los campos de selección llevan opciones.',
    rejected: 'El procesador de pagos rechazó este valor ({reason}).',
    inactive: 'Este fondo está archivado (active: false) y no recibe donativos nuevos.',
    currency_mismatch: 'El lote solo admite donativos en {currency}.',
    before_start: 'Debe ser igual o posterior a la fecha de inicio ({start}).',
    not_after_start: 'Debe ser posterior a starts_at.',
    not_in_group: 'Este miembro no está en el grupo.',
  },
  pt: {
    required: 'Este campo é obrigatório.',
    invalid: 'Este valor não é válido.',
    invalid_format: 'Este valor não tem o formato esperado ({format}).',
    invalid_type: 'Este valor deve ser do tipo {type}.',
    too_long: 'No máximo {max} caracteres.',
    too_short: 'No mínimo {min} caracteres.',
    one_of: 'Deve ser um de: {values}.',
    out_of_range: 'Deve estar entre {min} e {max}.',
    not_found: 'Nenhum registro corresponde a esta referência.',
    unknown_field: 'Este campo não é reconhecido.',
    unknown_operator: 'Operador desconhecido {operator}.',
    not_sortable: 'Não é possível ordenar por este campo; ordenáveis: {values}.',
    not_filterable: 'Não é possível filtrar por este campo.',
    duplicate: 'Este valor já está em uso.',
    too_many: 'No máximo {max} itens.',
    in_future: 'Esta data não pode estar no futuro.',
    not_in_options: 'Deve ser uma das opções do campo: {values}.',
    missing: 'Este campo personalizado é obrigatório.',
    not_allowed: 'Somente campos de seleção têm opções.',
    rejected: 'O processador de pagamentos recusou este valor ({reason}).',
    inactive: 'Este fundo está arquivado (active: false) e não recebe novas doações.',
    currency_mismatch: 'O lote aceita apenas doações em {currency}.',
    before_start: 'Deve ser igual ou posterior à data de início ({start}).',
    not_after_start: 'Deve ser posterior a starts_at.',
    not_in_group: 'Este membro não está no grupo.',
  },
};

/**
 * The expected formats that `invalid_format` messages name, in Spanish and Portuguese, keyed by the
 * English text the code passes as `params.format`. Technical names (email, UUID, URL, ISO 8601,
 * YYYY-MM-DD, ISO 3166-1 alpha-2, slug) read the same in every language and are not listed.
 */
export const FORMAT_CATALOG: Record<Exclude<Language, 'en'>, Record<string, string>> = {
  es: {
    'lowercase letters, digits and dashes': 'letras minúsculas, dígitos y guiones',
    'scheme://host[:port], lowercase, no path': 'esquema://host[:puerto], en minúsculas, sin ruta',
    'dotted path, e.g. data.object.amount': 'ruta con puntos, p. ej. data.object.amount',
    'https URL': 'URL https',
    'up to 50 snake_case keys with string (≤ 500), number, boolean or null values':
      'hasta 50 claves snake_case con valores de texto (≤ 500), número, booleano o null',
    'true or false': 'true o false',
    'percent-encoded UTF-8': 'UTF-8 codificado con porcentajes',
    'Unicode text without NUL (U+0000) or unpaired surrogate characters':
      'texto Unicode sin NUL (U+0000) ni sustitutos sin pareja',
    'JSON nested at most 32 levels': 'JSON anidado a 32 niveles como máximo',
    'E.164, e.g. +5213312345678': 'E.164, p. ej. +5213312345678',
    'hh_ id': 'id hh_',
    'mem_ id': 'id mem_',
    'grp_ id': 'id grp_',
    'HH:MM (24-hour)': 'HH:MM (24 horas)',
    'IANA time zone': 'zona horaria IANA',
    'four digits': 'cuatro dígitos',
    'characters of BCDFGHJKLMNPRSTXZ2456789 (any case)':
      'caracteres de BCDFGHJKLMNPRSTXZ2456789 (mayúsculas o minúsculas)',
    'ISO 8601 with a time zone': 'ISO 8601 con zona horaria',
    'Stripe secret key (sk_… or rk_…)': 'clave secreta de Stripe (sk_… o rk_…)',
    'absolute https URL (http only on 127.0.0.1, [::1] or localhost), no fragment':
      'URL https absoluta (http solo en 127.0.0.1, [::1] o localhost), sin fragmento',
    text: 'texto',
    'one of the listed values': 'uno de los valores indicados',
    integer: 'número entero',
    number: 'número',
    'a cursor from next_cursor or /v1/changes/head': 'un cursor de next_cursor o de /v1/changes/head',
  },
  pt: {
    'lowercase letters, digits and dashes': 'letras minúsculas, dígitos e hífens',
    'scheme://host[:port], lowercase, no path': 'esquema://host[:porta], em minúsculas, sem caminho',
    'dotted path, e.g. data.object.amount': 'caminho com pontos, ex.: data.object.amount',
    'https URL': 'URL https',
    'up to 50 snake_case keys with string (≤ 500), number, boolean or null values':
      'até 50 chaves snake_case com valores de texto (≤ 500), número, booleano ou null',
    'true or false': 'true ou false',
    'percent-encoded UTF-8': 'UTF-8 codificado com porcentagem',
    'Unicode text without NUL (U+0000) or unpaired surrogate characters':
      'texto Unicode sem NUL (U+0000) nem substitutos sem par',
    'JSON nested at most 32 levels': 'JSON aninhado em no máximo 32 níveis',
    'E.164, e.g. +5213312345678': 'E.164, ex.: +5213312345678',
    'hh_ id': 'id hh_',
    'mem_ id': 'id mem_',
    'grp_ id': 'id grp_',
    'HH:MM (24-hour)': 'HH:MM (24 horas)',
    'IANA time zone': 'fuso horário IANA',
    'four digits': 'quatro dígitos',
    'characters of BCDFGHJKLMNPRSTXZ2456789 (any case)':
      'caracteres de BCDFGHJKLMNPRSTXZ2456789 (maiúsculas ou minúsculas)',
    'ISO 8601 with a time zone': 'ISO 8601 com fuso horário',
    'Stripe secret key (sk_… or rk_…)': 'chave secreta do Stripe (sk_… ou rk_…)',
    'absolute https URL (http only on 127.0.0.1, [::1] or localhost), no fragment':
      'URL https absoluta (http somente em 127.0.0.1, [::1] ou localhost), sem fragmento',
    text: 'texto',
    'one of the listed values': 'um dos valores indicados',
    integer: 'número inteiro',
    number: 'número',
    'a cursor from next_cursor or /v1/changes/head': 'um cursor de next_cursor ou de /v1/changes/head',
  },
};
