import type { Language } from '../../common/i18n/language';

/** Every word of the console's pages, per language (es default; en and pt by Accept-Language). */
export interface ConsoleTexts {
  product: string;
  footer: string;
  skip: string;
  nav: {
    label: string;
    account: string;
    tokens: string;
    apps: string;
    church: string;
    serviceTokens: string;
    api: string;
    cors: string;
    webhooks: string;
    devices: string;
    audit: string;
    usage: string;
    signOut: string;
    /** `{email}`, `{role}` */
    signedInAs: string;
  };
  signIn: {
    title: string;
    heading: string;
    lead: string;
    church: string;
    churchHint: string;
    email: string;
    password: string;
    submit: string;
    missing: string;
    wrong: string;
    /** `{minutes}` */
    throttled: string;
    signedOut: string;
    expired: string;
  };
  tokens: {
    title: string;
    lead: string;
    serviceTitle: string;
    serviceLead: string;
    none: string;
    name: string;
    nameHint: string;
    scopes: string;
    created: string;
    expires: string;
    lastUsed: string;
    never: string;
    create: string;
    newHeading: string;
    revoke: string;
    /** `{name}` */
    revokeLabel: string;
    revoked: string;
    secretHeading: string;
    secretNote: string;
    secretLabel: string;
    copy: string;
    copied: string;
    done: string;
  };
  apps: {
    title: string;
    lead: string;
    none: string;
    authorized: string;
    revoke: string;
    /** `{name}` */
    revokeLabel: string;
    revoked: string;
  };
  cors: {
    title: string;
    lead: string;
    origins: string;
    hint: string;
    save: string;
    saved: string;
    empty: string;
  };
  webhooks: {
    title: string;
    lead: string;
    none: string;
    never: string;
    states: { healthy: string; failing: string; disabled: string };
    /** `{at}` */
    healthyDetail: string;
    /** `{count}`, `{at}` */
    failingDetail: string;
    url: string;
    urlHint: string;
    description: string;
    events: string;
    eventsHint: string;
    filters: string;
    filtersHint: string;
    filterPath: string;
    filterOp: string;
    filterValue: string;
    editHeading: string;
    save: string;
    saved: string;
    older: string;
    newest: string;
    newHeading: string;
    create: string;
    secretHeading: string;
    secretNote: string;
    secretLabel: string;
    open: string;
    deleted: string;
    back: string;
    settings: string;
    health: string;
    status: string;
    statusEnabled: string;
    statusDisabled: string;
    createdAt: string;
    enable: string;
    disable: string;
    enabled: string;
    disabledNotice: string;
    remove: string;
    removeHint: string;
    rollSecret: string;
    rollHint: string;
    validate: string;
    validateHint: string;
    validateResult: string;
    test: string;
    testHint: string;
    testType: string;
    /** `{type}` */
    testResult: string;
    /** `{status}`, `{ms}` */
    answered: string;
    /** `{status}`, `{ms}`, `{error}` */
    failed: string;
    backfillHeading: string;
    backfillHint: string;
    type: string;
    from: string;
    to: string;
    backfillSubmit: string;
    /** `{count}` */
    backfilled: string;
    attemptsHeading: string;
    noAttempts: string;
    event: string;
    attempt: string;
    statusCode: string;
    duration: string;
    error: string;
    time: string;
    /** `{ms}` */
    ms: string;
    resend: string;
    /** `{event}` */
    resendLabel: string;
    resent: string;
    chartTitle: string;
    /** `{ok}`, `{failed}` */
    chartAlt: string;
    chartTable: string;
    day: string;
    succeeded: string;
    failedSeries: string;
    attemptsAxis: string;
    actionsHeading: string;
  };
  devices: {
    title: string;
    lead: string;
    none: string;
    name: string;
    campus: string;
    key: string;
    created: string;
    revoke: string;
    /** `{name}` */
    revokeLabel: string;
    revoked: string;
    newHeading: string;
    campusNone: string;
    register: string;
    rotate: string;
    /** `{name}` */
    rotateLabel: string;
    keyHeading: string;
    keyNote: string;
    keyLabel: string;
  };
  audit: {
    title: string;
    lead: string;
    none: string;
    filter: string;
    filterHint: string;
    apply: string;
    time: string;
    action: string;
    resource: string;
    actor: string;
    status: string;
    next: string;
    first: string;
    token: string;
    tokenHint: string;
    from: string;
    to: string;
    clear: string;
    /** `{name}` */
    byTokenLabel: string;
  };
  usage: {
    title: string;
    lead: string;
    plan: string;
    today: string;
    thisMinute: string;
    used: string;
    quota: string;
    day: string;
    perDay: string;
    chartTitle: string;
    /** `{used}`, `{quota}`, `{percent}` */
    todayText: string;
    requestsToday: string;
    bytesToday: string;
    requestsMinute: string;
    rpm: string;
    burst: string;
    /** `{used}` */
    unlimitedText: string;
    unlimited: string;
    underOnePercent: string;
    /** `{at}` */
    resetsText: string;
  };
  /** A paged list's links. */
  pager: { older: string; newest: string };
  error: {
    title: string;
    reference: string;
    back: string;
    forbidden: { heading: string; message: string };
    csrf: { heading: string; message: string };
    form: { heading: string; message: string };
    notFound: { heading: string; message: string };
  };
}

const es: ConsoleTexts = {
  product: 'Configuración',
  footer: 'Conexión segura · Consola de la API de la iglesia',
  skip: 'Saltar al contenido',
  nav: {
    label: 'Secciones',
    account: 'Mi cuenta',
    tokens: 'Tokens',
    apps: 'Aplicaciones autorizadas',
    church: 'Iglesia',
    serviceTokens: 'Tokens de servicio',
    api: 'API',
    cors: 'CORS',
    webhooks: 'Webhooks',
    devices: 'Dispositivos',
    audit: 'Registro de auditoría',
    usage: 'Uso',
    signOut: 'Cerrar sesión',
    signedInAs: '{email} · {role}',
  },
  signIn: {
    title: 'Iniciar sesión',
    heading: 'Configuración de la API',
    lead: 'Inicie sesión con su cuenta del equipo de la iglesia.',
    church: 'Clave de la iglesia',
    churchHint: 'La que usa en X-Tenant, por ejemplo: iglesia-central',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Iniciar sesión',
    missing: 'Escriba la clave de la iglesia, su correo electrónico y su contraseña.',
    wrong: 'Iglesia, correo electrónico o contraseña incorrectos.',
    throttled: 'Demasiados intentos fallidos. Vuelva a intentarlo en {minutes} min.',
    signedOut: 'Sesión cerrada.',
    expired: 'Su sesión terminó. Vuelva a iniciar sesión.',
  },
  tokens: {
    title: 'Tokens personales',
    lead: 'Tokens de acceso personal (chp_) para llamar a la API en su nombre. Nunca tienen más permisos que su rol.',
    serviceTitle: 'Tokens de servicio',
    serviceLead: 'Tokens de servicio (chs_) de la iglesia: no dependen de una persona y duran un año.',
    none: 'Todavía no hay tokens.',
    name: 'Nombre',
    nameHint: 'Para qué es; aparece en el registro de auditoría.',
    scopes: 'Permisos',
    created: 'Creado',
    expires: 'Vence',
    lastUsed: 'Último uso',
    never: 'Nunca',
    create: 'Crear token',
    newHeading: 'Nuevo token',
    revoke: 'Revocar',
    revokeLabel: 'Revocar {name}',
    revoked: 'Token revocado.',
    secretHeading: 'Copie su token ahora',
    secretNote: 'Es la única vez que se muestra. Guárdelo en un lugar seguro; si lo pierde, cree otro.',
    secretLabel: 'Valor del token',
    copy: 'Copiar',
    copied: 'Copiado',
    done: 'Listo, ya lo guardé',
  },
  apps: {
    title: 'Aplicaciones autorizadas',
    lead: 'Aplicaciones a las que dio acceso con su cuenta. Al revocar una, pierde el acceso al instante.',
    none: 'No ha autorizado ninguna aplicación.',
    authorized: 'Autorizada',
    revoke: 'Revocar acceso',
    revokeLabel: 'Revocar acceso de {name}',
    revoked: 'Acceso revocado.',
  },
  cors: {
    title: 'CORS',
    lead: 'Orígenes de navegador que pueden llamar a la API de la iglesia. Los demás se rechazan.',
    origins: 'Orígenes permitidos',
    hint: 'Uno por línea: esquema://host[:puerto], en minúsculas, sin ruta.',
    save: 'Guardar',
    saved: 'Lista guardada.',
    empty: 'Lista vacía: se rechaza todo navegador.',
  },
  webhooks: {
    title: 'Webhooks',
    lead: 'Los puntos de destino que reciben los eventos de la iglesia, firmados con su secreto whsec_.',
    none: 'Todavía no hay puntos de destino.',
    never: 'nunca',
    states: { healthy: 'Correcto', failing: 'Con fallos', disabled: 'Desactivado' },
    healthyDetail: 'Última entrega correcta: {at}',
    failingDetail: '{count} fallos seguidos; se desactivará el {at}',
    url: 'URL',
    urlHint: 'https, con una dirección pública.',
    description: 'Descripción',
    events: 'Eventos',
    eventsHint: 'Los tipos de evento que se enviarán (* para todos).',
    filters: 'Filtros (opcional)',
    filtersHint:
      'Solo se envían los eventos que cumplen todos los filtros. Campo: una ruta del evento, p. ej. data.object.amount. Valor: un número, true, false o un texto; con «in», varios separados por comas.',
    filterPath: 'Campo',
    filterOp: 'Operador',
    filterValue: 'Valor',
    editHeading: 'Editar',
    save: 'Guardar cambios',
    saved: 'Cambios guardados.',
    older: 'Más antiguos',
    newest: 'Más recientes',
    newHeading: 'Nuevo punto de destino',
    create: 'Crear',
    secretHeading: 'Copie el secreto de firma ahora',
    secretNote: 'No se volverá a mostrar. Con él, su receptor comprueba la firma de cada entrega.',
    secretLabel: 'Secreto de firma',
    open: 'Ver el punto de destino',
    deleted: 'Punto de destino eliminado.',
    back: 'Todos los webhooks',
    settings: 'Configuración',
    health: 'Estado',
    status: 'Situación',
    statusEnabled: 'Activado',
    statusDisabled: 'Desactivado',
    createdAt: 'Creado',
    enable: 'Activar',
    disable: 'Desactivar',
    enabled: 'Punto de destino activado.',
    disabledNotice: 'Punto de destino desactivado.',
    remove: 'Eliminar',
    removeHint: 'Deja de recibir eventos; no se puede deshacer.',
    rollSecret: 'Cambiar el secreto',
    rollHint: 'El secreto anterior sigue firmando durante 24 horas.',
    validate: 'Comprobar',
    validateHint: 'Llama a GET /webhooks/ping en el mismo origen.',
    validateResult: 'Comprobación',
    test: 'Enviar un evento de prueba',
    testHint: 'Un evento de ejemplo firmado, con "test": true; no se reintenta.',
    testType: 'Tipo de evento',
    testResult: 'Evento de prueba {type}',
    answered: 'Respondió {status} en {ms} ms',
    failed: 'Falló ({error}) en {ms} ms',
    backfillHeading: 'Reenviar un periodo',
    backfillHint: 'Entrega de nuevo cada evento de un tipo creado entre esas fechas (UTC).',
    type: 'Tipo',
    from: 'Desde',
    to: 'Hasta',
    backfillSubmit: 'Reenviar el periodo',
    backfilled: '{count} eventos en cola.',
    attemptsHeading: 'Intentos',
    noAttempts: 'Todavía no hay intentos.',
    event: 'Evento',
    attempt: 'Intento',
    statusCode: 'Código',
    duration: 'Duración',
    error: 'Error',
    time: 'Hora (UTC)',
    ms: '{ms} ms',
    resend: 'Reenviar',
    resendLabel: 'Reenviar {event}',
    resent: 'Evento reenviado.',
    chartTitle: 'Entregas de los últimos 7 días',
    chartAlt: 'Gráfico de barras: {ok} entregas correctas y {failed} fallidas en los últimos 7 días.',
    chartTable: 'Entregas por día',
    day: 'Día',
    succeeded: 'Correctas',
    failedSeries: 'Fallidas',
    attemptsAxis: 'Intentos',
    actionsHeading: 'Acciones',
  },
  devices: {
    title: 'Dispositivos',
    lead: 'Los quioscos de registro de la iglesia y sus claves. Revocar uno invalida su clave al instante.',
    none: 'No hay dispositivos registrados.',
    name: 'Nombre',
    campus: 'Sede',
    key: 'Clave',
    created: 'Registrado',
    revoke: 'Revocar',
    revokeLabel: 'Revocar {name}',
    revoked: 'Dispositivo revocado.',
    newHeading: 'Registrar un dispositivo',
    campusNone: 'Ninguna',
    register: 'Registrar',
    rotate: 'Cambiar clave',
    rotateLabel: 'Cambiar clave de {name}',
    keyHeading: 'Copie la clave del quiosco ahora',
    keyNote: 'Es la única vez que se muestra. Escríbala en el quiosco; si la pierde, cámbiela.',
    keyLabel: 'Clave del quiosco',
  },
  audit: {
    title: 'Registro de auditoría',
    lead: 'Cada cambio hecho con un token o desde esta consola, el más reciente primero.',
    none: 'No hay entradas.',
    filter: 'Acción',
    filterHint: 'Por ejemplo: endpoints.create',
    apply: 'Filtrar',
    time: 'Hora (UTC)',
    action: 'Acción',
    resource: 'Recurso',
    actor: 'Quién',
    status: 'Estado',
    next: 'Más antiguas',
    first: 'Más recientes',
    token: 'Token',
    tokenHint: 'Su id tok_…, o pulse el nombre de un token en la lista.',
    from: 'Desde (UTC)',
    to: 'Hasta (UTC)',
    clear: 'Quitar filtros',
    byTokenLabel: 'Solo las entradas de {name}',
  },
  usage: {
    title: 'Uso',
    lead: 'Las solicitudes de hoy (UTC) frente a la cuota de su plan.',
    plan: 'Plan',
    today: 'Hoy',
    thisMinute: 'Este minuto',
    used: 'Usadas',
    quota: 'Cuota',
    day: 'Periodo',
    perDay: 'Solicitudes',
    chartTitle: 'Solicitudes de hoy frente a la cuota diaria',
    todayText: '{used} de {quota} solicitudes hoy ({percent} %).',
    requestsToday: 'Solicitudes hoy',
    bytesToday: 'Bytes enviados hoy',
    requestsMinute: 'Solicitudes este minuto',
    rpm: 'Por minuto',
    burst: 'Ráfaga',
    unlimitedText: '{used} solicitudes hoy; su plan no tiene límite diario.',
    unlimited: 'sin límite',
    underOnePercent: 'menos del 1',
    resetsText: 'La cuota diaria vuelve a empezar el {at} (UTC).',
  },
  pager: { older: 'Más antiguos', newest: 'Más recientes' },
  error: {
    title: 'No se puede continuar',
    reference: 'Referencia:',
    back: 'Volver a la consola',
    forbidden: {
      heading: 'Sin permiso',
      message: 'Su rol no permite usar esta página. Pida a un administrador de la iglesia que lo haga por usted.',
    },
    csrf: {
      heading: 'No pudimos verificar este formulario',
      message: 'El formulario venció o no vino de esta página. Vuelva a la consola e inténtelo de nuevo.',
    },
    form: { heading: 'Formulario no válido', message: 'No pudimos leer el formulario enviado.' },
    notFound: { heading: 'Página no encontrada', message: 'Esta página de la consola no existe.' },
  },
};

const en: ConsoleTexts = {
  product: 'Settings',
  footer: 'Secure connection · Church API console',
  skip: 'Skip to content',
  nav: {
    label: 'Sections',
    account: 'My account',
    tokens: 'Tokens',
    apps: 'Authorized apps',
    church: 'Church',
    serviceTokens: 'Service tokens',
    api: 'API',
    cors: 'CORS',
    webhooks: 'Webhooks',
    devices: 'Devices',
    audit: 'Audit log',
    usage: 'Usage',
    signOut: 'Sign out',
    signedInAs: '{email} · {role}',
  },
  signIn: {
    title: 'Sign in',
    heading: 'API settings',
    lead: 'Sign in with your church staff account.',
    church: 'Church key',
    churchHint: 'The one you send as X-Tenant, e.g. grace-church',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    missing: 'Enter the church key, your email and your password.',
    wrong: 'Wrong church, email or password.',
    throttled: 'Too many failed attempts. Try again in {minutes} min.',
    signedOut: 'You are signed out.',
    expired: 'Your session ended. Please sign in again.',
  },
  tokens: {
    title: 'Personal tokens',
    lead: 'Personal access tokens (chp_) to call the API as you. They never hold more than your role allows.',
    serviceTitle: 'Service tokens',
    serviceLead: "The church's service tokens (chs_): not tied to a person, valid for one year.",
    none: 'No tokens yet.',
    name: 'Name',
    nameHint: 'What it is for; shown in the audit log.',
    scopes: 'Scopes',
    created: 'Created',
    expires: 'Expires',
    lastUsed: 'Last used',
    never: 'Never',
    create: 'Create token',
    newHeading: 'New token',
    revoke: 'Revoke',
    revokeLabel: 'Revoke {name}',
    revoked: 'Token revoked.',
    secretHeading: 'Copy your token now',
    secretNote: 'This is the only time it is shown. Keep it somewhere safe; if you lose it, create another.',
    secretLabel: 'Token value',
    copy: 'Copy',
    copied: 'Copied',
    done: "Done, I've saved it",
  },
  apps: {
    title: 'Authorized apps',
    lead: 'Apps you gave access with your account. Revoking one ends its access at once.',
    none: 'You have not authorized any app.',
    authorized: 'Authorized',
    revoke: 'Revoke access',
    revokeLabel: 'Revoke access of {name}',
    revoked: 'Access revoked.',
  },
  cors: {
    title: 'CORS',
    lead: "Browser origins allowed to call the church's API. Any other is refused.",
    origins: 'Allowed origins',
    hint: 'One per line: scheme://host[:port], lowercase, no path.',
    save: 'Save',
    saved: 'Allowlist saved.',
    empty: 'Empty list: every browser is refused.',
  },
  webhooks: {
    title: 'Webhooks',
    lead: "The endpoints that receive the church's events, signed with their whsec_ secret.",
    none: 'No endpoints yet.',
    never: 'never',
    states: { healthy: 'Healthy', failing: 'Failing', disabled: 'Disabled' },
    healthyDetail: 'Last successful delivery: {at}',
    failingDetail: '{count} failures in a row; will be disabled on {at}',
    url: 'URL',
    urlHint: 'https, reaching a public address.',
    description: 'Description',
    events: 'Events',
    eventsHint: 'The event types to send (* for all of them).',
    filters: 'Filters (optional)',
    filtersHint:
      'Only events that pass every filter are sent. Field: a path in the event, e.g. data.object.amount. Value: a number, true, false or text; with “in”, several separated by commas.',
    filterPath: 'Field',
    filterOp: 'Operator',
    filterValue: 'Value',
    editHeading: 'Edit',
    save: 'Save changes',
    saved: 'Changes saved.',
    older: 'Older',
    newest: 'Newest',
    newHeading: 'New endpoint',
    create: 'Create',
    secretHeading: 'Copy the signing secret now',
    secretNote: 'It will not be shown again. Your receiver checks the signature of each delivery with it.',
    secretLabel: 'Signing secret',
    open: 'Open the endpoint',
    deleted: 'Endpoint deleted.',
    back: 'All webhooks',
    settings: 'Settings',
    health: 'Health',
    status: 'Status',
    statusEnabled: 'Enabled',
    statusDisabled: 'Disabled',
    createdAt: 'Created',
    enable: 'Enable',
    disable: 'Disable',
    enabled: 'Endpoint enabled.',
    disabledNotice: 'Endpoint disabled.',
    remove: 'Delete',
    removeHint: 'It stops receiving events; this cannot be undone.',
    rollSecret: 'Roll secret',
    rollHint: 'The previous secret keeps signing for 24 hours.',
    validate: 'Validate',
    validateHint: 'Calls GET /webhooks/ping on the same origin.',
    validateResult: 'Validation',
    test: 'Send a test event',
    testHint: 'A signed sample event with "test": true; never retried.',
    testType: 'Event type',
    testResult: 'Test event {type}',
    answered: 'Answered {status} in {ms} ms',
    failed: 'Failed ({error}) in {ms} ms',
    backfillHeading: 'Backfill a date range',
    backfillHint: 'Delivers again every event of one type created between these dates (UTC).',
    type: 'Type',
    from: 'From',
    to: 'To',
    backfillSubmit: 'Backfill',
    backfilled: '{count} events queued.',
    attemptsHeading: 'Attempts',
    noAttempts: 'No attempts yet.',
    event: 'Event',
    attempt: 'Attempt',
    statusCode: 'Status',
    duration: 'Duration',
    error: 'Error',
    time: 'Time (UTC)',
    ms: '{ms} ms',
    resend: 'Resend',
    resendLabel: 'Resend {event}',
    resent: 'Event resent.',
    chartTitle: 'Deliveries in the last 7 days',
    chartAlt: 'Bar chart: {ok} successful and {failed} failed deliveries in the last 7 days.',
    chartTable: 'Deliveries per day',
    day: 'Day',
    succeeded: 'Succeeded',
    failedSeries: 'Failed',
    attemptsAxis: 'Attempts',
    actionsHeading: 'Actions',
  },
  devices: {
    title: 'Devices',
    lead: "The church's check-in kiosks and their keys. Revoking one ends its key at once.",
    none: 'No devices registered.',
    name: 'Name',
    campus: 'Campus',
    key: 'Key',
    created: 'Registered',
    revoke: 'Revoke',
    revokeLabel: 'Revoke {name}',
    revoked: 'Device revoked.',
    newHeading: 'Register a device',
    campusNone: 'None',
    register: 'Register',
    rotate: 'Rotate key',
    rotateLabel: 'Rotate key for {name}',
    keyHeading: 'Copy the kiosk key now',
    keyNote: 'It is shown only this once. Enter it on the kiosk; if it is lost, rotate it.',
    keyLabel: 'Kiosk key',
  },
  audit: {
    title: 'Audit log',
    lead: 'Every change made with a token or from this console, newest first.',
    none: 'No entries.',
    filter: 'Action',
    filterHint: 'For example: endpoints.create',
    apply: 'Filter',
    time: 'Time (UTC)',
    action: 'Action',
    resource: 'Resource',
    actor: 'Who',
    status: 'Status',
    next: 'Older',
    first: 'Newest',
    token: 'Token',
    tokenHint: 'Its tok_… id, or select a token name in the list.',
    from: 'From (UTC)',
    to: 'To (UTC)',
    clear: 'Clear filters',
    byTokenLabel: 'Only the entries of {name}',
  },
  usage: {
    title: 'Usage',
    lead: "Today's requests (UTC) against your plan's quota.",
    plan: 'Plan',
    today: 'Today',
    thisMinute: 'This minute',
    used: 'Used',
    quota: 'Quota',
    day: 'Period',
    perDay: 'Requests',
    chartTitle: "Today's requests against the daily quota",
    todayText: '{used} of {quota} requests today ({percent}%).',
    requestsToday: 'Requests today',
    bytesToday: 'Bytes sent today',
    requestsMinute: 'Requests this minute',
    rpm: 'Per minute',
    burst: 'Burst',
    unlimitedText: '{used} requests today; your plan has no daily limit.',
    unlimited: 'no limit',
    underOnePercent: 'under 1',
    resetsText: 'The daily quota starts again on {at} (UTC).',
  },
  pager: { older: 'Older', newest: 'Newest' },
  error: {
    title: 'Cannot continue',
    reference: 'Reference:',
    back: 'Back to the console',
    forbidden: {
      heading: 'Not allowed',
      message: 'Your role cannot use this page. Ask a church administrator to do it for you.',
    },
    csrf: {
      heading: 'We could not verify this form',
      message: 'The form expired or did not come from this page. Go back to the console and try again.',
    },
    form: { heading: 'Invalid form', message: 'We could not read the form that was sent.' },
    notFound: { heading: 'Page not found', message: 'This console page does not exist.' },
  },
};

const pt: ConsoleTexts = {
  product: 'Configurações',
  footer: 'Conexão segura · Console da API da igreja',
  skip: 'Pular para o conteúdo',
  nav: {
    label: 'Seções',
    account: 'Minha conta',
    tokens: 'Tokens',
    apps: 'Aplicativos autorizados',
    church: 'Igreja',
    serviceTokens: 'Tokens de serviço',
    api: 'API',
    cors: 'CORS',
    webhooks: 'Webhooks',
    devices: 'Dispositivos',
    audit: 'Registro de auditoria',
    usage: 'Uso',
    signOut: 'Sair',
    signedInAs: '{email} · {role}',
  },
  signIn: {
    title: 'Entrar',
    heading: 'Configurações da API',
    lead: 'Entre com sua conta da equipe da igreja.',
    church: 'Chave da igreja',
    churchHint: 'A que você usa em X-Tenant, por exemplo: igreja-central',
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    missing: 'Informe a chave da igreja, seu e-mail e sua senha.',
    wrong: 'Igreja, e-mail ou senha incorretos.',
    throttled: 'Muitas tentativas sem sucesso. Tente novamente em {minutes} min.',
    signedOut: 'Você saiu.',
    expired: 'Sua sessão terminou. Entre novamente.',
  },
  tokens: {
    title: 'Tokens pessoais',
    lead: 'Tokens de acesso pessoal (chp_) para chamar a API em seu nome. Nunca têm mais permissões que o seu papel.',
    serviceTitle: 'Tokens de serviço',
    serviceLead: 'Tokens de serviço (chs_) da igreja: não dependem de uma pessoa e valem por um ano.',
    none: 'Ainda não há tokens.',
    name: 'Nome',
    nameHint: 'Para que serve; aparece no registro de auditoria.',
    scopes: 'Permissões',
    created: 'Criado',
    expires: 'Expira',
    lastUsed: 'Último uso',
    never: 'Nunca',
    create: 'Criar token',
    newHeading: 'Novo token',
    revoke: 'Revogar',
    revokeLabel: 'Revogar {name}',
    revoked: 'Token revogado.',
    secretHeading: 'Copie seu token agora',
    secretNote: 'É a única vez que ele aparece. Guarde-o em um lugar seguro; se perdê-lo, crie outro.',
    secretLabel: 'Valor do token',
    copy: 'Copiar',
    copied: 'Copiado',
    done: 'Pronto, já guardei',
  },
  apps: {
    title: 'Aplicativos autorizados',
    lead: 'Aplicativos aos quais você deu acesso com sua conta. Ao revogar um, o acesso termina na hora.',
    none: 'Você não autorizou nenhum aplicativo.',
    authorized: 'Autorizado',
    revoke: 'Revogar acesso',
    revokeLabel: 'Revogar acesso de {name}',
    revoked: 'Acesso revogado.',
  },
  cors: {
    title: 'CORS',
    lead: 'Origens de navegador que podem chamar a API da igreja. As demais são recusadas.',
    origins: 'Origens permitidas',
    hint: 'Uma por linha: esquema://host[:porta], em minúsculas, sem caminho.',
    save: 'Salvar',
    saved: 'Lista salva.',
    empty: 'Lista vazia: todo navegador é recusado.',
  },
  webhooks: {
    title: 'Webhooks',
    lead: 'Os destinos que recebem os eventos da igreja, assinados com o segredo whsec_.',
    none: 'Ainda não há destinos.',
    never: 'nunca',
    states: { healthy: 'Saudável', failing: 'Com falhas', disabled: 'Desativado' },
    healthyDetail: 'Última entrega bem-sucedida: {at}',
    failingDetail: '{count} falhas seguidas; será desativado em {at}',
    url: 'URL',
    urlHint: 'https, com um endereço público.',
    description: 'Descrição',
    events: 'Eventos',
    eventsHint: 'Os tipos de evento a enviar (* para todos).',
    filters: 'Filtros (opcional)',
    filtersHint:
      'Só são enviados os eventos que atendem a todos os filtros. Campo: um caminho no evento, p. ex. data.object.amount. Valor: um número, true, false ou um texto; com “in”, vários separados por vírgulas.',
    filterPath: 'Campo',
    filterOp: 'Operador',
    filterValue: 'Valor',
    editHeading: 'Editar',
    save: 'Salvar alterações',
    saved: 'Alterações salvas.',
    older: 'Mais antigos',
    newest: 'Mais recentes',
    newHeading: 'Novo destino',
    create: 'Criar',
    secretHeading: 'Copie o segredo de assinatura agora',
    secretNote: 'Ele não será mostrado novamente. Com ele, seu receptor verifica a assinatura de cada entrega.',
    secretLabel: 'Segredo de assinatura',
    open: 'Abrir o destino',
    deleted: 'Destino excluído.',
    back: 'Todos os webhooks',
    settings: 'Configuração',
    health: 'Saúde',
    status: 'Situação',
    statusEnabled: 'Ativado',
    statusDisabled: 'Desativado',
    createdAt: 'Criado',
    enable: 'Ativar',
    disable: 'Desativar',
    enabled: 'Destino ativado.',
    disabledNotice: 'Destino desativado.',
    remove: 'Excluir',
    removeHint: 'Deixa de receber eventos; não pode ser desfeito.',
    rollSecret: 'Trocar o segredo',
    rollHint: 'O segredo anterior continua assinando por 24 horas.',
    validate: 'Verificar',
    validateHint: 'Chama GET /webhooks/ping na mesma origem.',
    validateResult: 'Verificação',
    test: 'Enviar um evento de teste',
    testHint: 'Um evento de exemplo assinado, com "test": true; nunca é repetido.',
    testType: 'Tipo de evento',
    testResult: 'Evento de teste {type}',
    answered: 'Respondeu {status} em {ms} ms',
    failed: 'Falhou ({error}) em {ms} ms',
    backfillHeading: 'Reenviar um período',
    backfillHint: 'Entrega de novo cada evento de um tipo criado entre essas datas (UTC).',
    type: 'Tipo',
    from: 'De',
    to: 'Até',
    backfillSubmit: 'Reenviar o período',
    backfilled: '{count} eventos na fila.',
    attemptsHeading: 'Tentativas',
    noAttempts: 'Ainda não há tentativas.',
    event: 'Evento',
    attempt: 'Tentativa',
    statusCode: 'Código',
    duration: 'Duração',
    error: 'Erro',
    time: 'Hora (UTC)',
    ms: '{ms} ms',
    resend: 'Reenviar',
    resendLabel: 'Reenviar {event}',
    resent: 'Evento reenviado.',
    chartTitle: 'Entregas dos últimos 7 dias',
    chartAlt: 'Gráfico de barras: {ok} entregas bem-sucedidas e {failed} com falha nos últimos 7 dias.',
    chartTable: 'Entregas por dia',
    day: 'Dia',
    succeeded: 'Bem-sucedidas',
    failedSeries: 'Com falha',
    attemptsAxis: 'Tentativas',
    actionsHeading: 'Ações',
  },
  devices: {
    title: 'Dispositivos',
    lead: 'Os quiosques de check-in da igreja e suas chaves. Revogar um invalida sua chave na hora.',
    none: 'Nenhum dispositivo registrado.',
    name: 'Nome',
    campus: 'Campus',
    key: 'Chave',
    created: 'Registrado',
    revoke: 'Revogar',
    revokeLabel: 'Revogar {name}',
    revoked: 'Dispositivo revogado.',
    newHeading: 'Registrar um dispositivo',
    campusNone: 'Nenhuma',
    register: 'Registrar',
    rotate: 'Trocar chave',
    rotateLabel: 'Trocar chave de {name}',
    keyHeading: 'Copie a chave do quiosque agora',
    keyNote: 'Ela só é mostrada desta vez. Digite-a no quiosque; se perdê-la, troque-a.',
    keyLabel: 'Chave do quiosque',
  },
  audit: {
    title: 'Registro de auditoria',
    lead: 'Cada alteração feita com um token ou por este console, a mais recente primeiro.',
    none: 'Nenhuma entrada.',
    filter: 'Ação',
    filterHint: 'Por exemplo: endpoints.create',
    apply: 'Filtrar',
    time: 'Hora (UTC)',
    action: 'Ação',
    resource: 'Recurso',
    actor: 'Quem',
    status: 'Status',
    next: 'Mais antigas',
    first: 'Mais recentes',
    token: 'Token',
    tokenHint: 'O id tok_…, ou clique no nome de um token na lista.',
    from: 'De (UTC)',
    to: 'Até (UTC)',
    clear: 'Limpar filtros',
    byTokenLabel: 'Só as entradas de {name}',
  },
  usage: {
    title: 'Uso',
    lead: 'As solicitações de hoje (UTC) em relação à cota do seu plano.',
    plan: 'Plano',
    today: 'Hoje',
    thisMinute: 'Este minuto',
    used: 'Usadas',
    quota: 'Cota',
    day: 'Período',
    perDay: 'Solicitações',
    chartTitle: 'Solicitações de hoje em relação à cota diária',
    todayText: '{used} de {quota} solicitações hoje ({percent}%).',
    requestsToday: 'Solicitações hoje',
    bytesToday: 'Bytes enviados hoje',
    requestsMinute: 'Solicitações neste minuto',
    rpm: 'Por minuto',
    burst: 'Rajada',
    unlimitedText: '{used} solicitações hoje; seu plano não tem limite diário.',
    unlimited: 'sem limite',
    underOnePercent: 'menos de 1',
    resetsText: 'A cota diária recomeça em {at} (UTC).',
  },
  pager: { older: 'Mais antigos', newest: 'Mais recentes' },
  error: {
    title: 'Não é possível continuar',
    reference: 'Referência:',
    back: 'Voltar ao console',
    forbidden: {
      heading: 'Sem permissão',
      message: 'Seu papel não permite usar esta página. Peça a um administrador da igreja que faça isso por você.',
    },
    csrf: {
      heading: 'Não foi possível verificar este formulário',
      message: 'O formulário expirou ou não veio desta página. Volte ao console e tente novamente.',
    },
    form: { heading: 'Formulário inválido', message: 'Não foi possível ler o formulário enviado.' },
    notFound: { heading: 'Página não encontrada', message: 'Esta página do console não existe.' },
  },
};

export const CONSOLE_TEXTS: Record<Language, ConsoleTexts> = { es, en, pt };
