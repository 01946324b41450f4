/**
 * The sandbox payment page in the nine languages of the service's payment
 * gate (PaymentGateLanguage: 1 English … 9 Danish), as SubmitOrder asked for.
 * A language outside the list shows English, as the real gate does.
 */
import { Language, type LanguageCode } from '../../api/types.ts';

export interface PaymentTexts {
  /** BCP 47 tag: the page's `lang`, and the locale of its money and dates. */
  lang: string;
  title: string;
  intro: string;
  basket: (id: string) => string;
  item: string;
  price: string;
  delivery: string;
  refundProtection: string;
  amountToPay: string;
  payBefore: (deadline: string) => string;
  pay: (amount: string) => string;
  decline: string;
  notPending: string;
  alreadyPaid: string;
  timeRanOut: string;
  noLongerPending: string;
  noReturnAddress: string;
  returnToShop: string;
}

const ENGLISH: PaymentTexts = {
  lang: 'en-GB',
  title: 'Sandbox payment',
  intro: "This is the Stagedoor sandbox's payment page. No money is taken.",
  basket: (id) => `Basket ${id}`,
  item: 'Item',
  price: 'Price',
  delivery: 'Delivery',
  refundProtection: 'Refund protection',
  amountToPay: 'Amount to pay',
  payBefore: (deadline) => `Please pay before ${deadline} (venue time).`,
  pay: (amount) => `Pay ${amount}`,
  decline: 'Decline',
  notPending: 'No payment is pending for this basket.',
  alreadyPaid: 'This basket is already paid.',
  timeRanOut: 'The time to pay has run out and the tickets were released.',
  noLongerPending: 'This payment is no longer pending.',
  noReturnAddress: 'No return address was given.',
  returnToShop: 'Return to the shop',
};

const TEXTS: Readonly<Record<number, PaymentTexts>> = {
  [Language.English]: ENGLISH,
  [Language.German]: {
    lang: 'de',
    title: 'Sandbox-Zahlung',
    intro: 'Dies ist die Zahlungsseite der Stagedoor-Sandbox. Es wird kein Geld abgebucht.',
    basket: (id) => `Warenkorb ${id}`,
    item: 'Position',
    price: 'Preis',
    delivery: 'Versand',
    refundProtection: 'Rückerstattungsschutz',
    amountToPay: 'Zu zahlender Betrag',
    payBefore: (deadline) => `Bitte bezahlen Sie bis ${deadline} (Ortszeit der Spielstätte).`,
    pay: (amount) => `${amount} bezahlen`,
    decline: 'Ablehnen',
    notPending: 'Für diesen Warenkorb ist keine Zahlung offen.',
    alreadyPaid: 'Dieser Warenkorb ist bereits bezahlt.',
    timeRanOut: 'Die Zahlungsfrist ist abgelaufen; die Karten wurden wieder freigegeben.',
    noLongerPending: 'Diese Zahlung ist nicht mehr offen.',
    noReturnAddress: 'Es wurde keine Rücksprungadresse angegeben.',
    returnToShop: 'Zurück zum Shop',
  },
  [Language.Spanish]: {
    lang: 'es',
    title: 'Pago de prueba (sandbox)',
    intro: 'Esta es la página de pago del entorno de pruebas de Stagedoor. No se cobra nada.',
    basket: (id) => `Carrito ${id}`,
    item: 'Concepto',
    price: 'Precio',
    delivery: 'Entrega',
    refundProtection: 'Protección de reembolso',
    amountToPay: 'Importe a pagar',
    payBefore: (deadline) => `Plazo de pago: hasta el ${deadline} (hora local del teatro).`,
    pay: (amount) => `Pagar ${amount}`,
    decline: 'Rechazar',
    notPending: 'Este carrito no tiene ningún pago pendiente.',
    alreadyPaid: 'Este carrito ya está pagado.',
    timeRanOut: 'El plazo de pago ha vencido y las entradas se han liberado.',
    noLongerPending: 'Este pago ya no está pendiente.',
    noReturnAddress: 'No se indicó ninguna dirección de retorno.',
    returnToShop: 'Volver a la tienda',
  },
  [Language.Italian]: {
    lang: 'it',
    title: 'Pagamento di prova (sandbox)',
    intro: "Questa è la pagina di pagamento dell'ambiente di prova Stagedoor. Non viene addebitato nulla.",
    basket: (id) => `Carrello ${id}`,
    item: 'Voce',
    price: 'Prezzo',
    delivery: 'Consegna',
    refundProtection: 'Protezione rimborso',
    amountToPay: 'Importo da pagare',
    payBefore: (deadline) => `Paga entro il ${deadline} (ora locale del teatro).`,
    pay: (amount) => `Paga ${amount}`,
    decline: 'Rifiuta',
    notPending: 'Per questo carrello non ci sono pagamenti in sospeso.',
    alreadyPaid: 'Questo carrello è già stato pagato.',
    timeRanOut: 'Il tempo per il pagamento è scaduto e i biglietti sono stati rimessi in vendita.',
    noLongerPending: 'Questo pagamento non è più in sospeso.',
    noReturnAddress: 'Non è stato indicato alcun indirizzo di ritorno.',
    returnToShop: 'Torna al negozio',
  },
  [Language.Swedish]: {
    lang: 'sv',
    title: 'Testbetalning (sandbox)',
    intro: 'Det här är betalningssidan i Stagedoors testmiljö. Inga pengar dras.',
    basket: (id) => `Varukorg ${id}`,
    item: 'Artikel',
    price: 'Pris',
    delivery: 'Leverans',
    refundProtection: 'Återbetalningsskydd',
    amountToPay: 'Att betala',
    payBefore: (deadline) => `Betala senast ${deadline} (lokal tid på teatern).`,
    pay: (amount) => `Betala ${amount}`,
    decline: 'Avvisa',
    notPending: 'Det finns ingen väntande betalning för den här varukorgen.',
    alreadyPaid: 'Den här varukorgen är redan betald.',
    timeRanOut: 'Tiden för betalning har gått ut och biljetterna har släppts.',
    noLongerPending: 'Den här betalningen väntar inte längre.',
    noReturnAddress: 'Ingen returadress angavs.',
    returnToShop: 'Tillbaka till butiken',
  },
  [Language.French]: {
    lang: 'fr',
    title: 'Paiement de test (sandbox)',
    intro: "Ceci est la page de paiement de l'environnement de test Stagedoor. Aucun montant n'est débité.",
    basket: (id) => `Panier ${id}`,
    item: 'Article',
    price: 'Prix',
    delivery: 'Livraison',
    refundProtection: 'Garantie de remboursement',
    amountToPay: 'Montant à payer',
    payBefore: (deadline) => `Veuillez payer avant le ${deadline} (heure locale du théâtre).`,
    pay: (amount) => `Payer ${amount}`,
    decline: 'Refuser',
    notPending: "Aucun paiement n'est en attente pour ce panier.",
    alreadyPaid: 'Ce panier est déjà payé.',
    timeRanOut: 'Le délai de paiement est écoulé et les billets ont été remis en vente.',
    noLongerPending: "Ce paiement n'est plus en attente.",
    noReturnAddress: "Aucune adresse de retour n'a été indiquée.",
    returnToShop: 'Retour à la boutique',
  },
  [Language.Dutch]: {
    lang: 'nl',
    title: 'Testbetaling (sandbox)',
    intro: 'Dit is de betaalpagina van de Stagedoor-testomgeving. Er wordt geen geld afgeschreven.',
    basket: (id) => `Winkelmand ${id}`,
    item: 'Omschrijving',
    price: 'Prijs',
    delivery: 'Bezorging',
    refundProtection: 'Restitutiegarantie',
    amountToPay: 'Te betalen',
    payBefore: (deadline) => `Betaal vóór ${deadline} (lokale tijd van het theater).`,
    pay: (amount) => `${amount} betalen`,
    decline: 'Weigeren',
    notPending: 'Voor deze winkelmand staat geen betaling open.',
    alreadyPaid: 'Deze winkelmand is al betaald.',
    timeRanOut: 'De betaaltermijn is verstreken en de kaarten zijn weer vrijgegeven.',
    noLongerPending: 'Deze betaling staat niet meer open.',
    noReturnAddress: 'Er is geen retouradres opgegeven.',
    returnToShop: 'Terug naar de winkel',
  },
  [Language.Norwegian]: {
    lang: 'nb',
    title: 'Testbetaling (sandkasse)',
    intro: 'Dette er betalingssiden i Stagedoors testmiljø. Ingen penger trekkes.',
    basket: (id) => `Handlekurv ${id}`,
    item: 'Vare',
    price: 'Pris',
    delivery: 'Levering',
    refundProtection: 'Refusjonsbeskyttelse',
    amountToPay: 'Å betale',
    payBefore: (deadline) => `Betal innen ${deadline} (lokal tid ved teatret).`,
    pay: (amount) => `Betal ${amount}`,
    decline: 'Avslå',
    notPending: 'Det er ingen ventende betaling for denne handlekurven.',
    alreadyPaid: 'Denne handlekurven er allerede betalt.',
    timeRanOut: 'Betalingsfristen har gått ut, og billettene er frigitt.',
    noLongerPending: 'Denne betalingen venter ikke lenger.',
    noReturnAddress: 'Ingen returadresse ble oppgitt.',
    returnToShop: 'Tilbake til butikken',
  },
  [Language.Danish]: {
    lang: 'da',
    title: 'Testbetaling (sandkasse)',
    intro: 'Dette er betalingssiden i Stagedoors testmiljø. Der trækkes ingen penge.',
    basket: (id) => `Kurv ${id}`,
    item: 'Vare',
    price: 'Pris',
    delivery: 'Levering',
    refundProtection: 'Refusionsbeskyttelse',
    amountToPay: 'At betale',
    payBefore: (deadline) => `Betal senest ${deadline} (lokal tid på teatret).`,
    pay: (amount) => `Betal ${amount}`,
    decline: 'Afvis',
    notPending: 'Der er ingen ventende betaling for denne kurv.',
    alreadyPaid: 'Denne kurv er allerede betalt.',
    timeRanOut: 'Betalingsfristen er udløbet, og billetterne er frigivet.',
    noLongerPending: 'Denne betaling venter ikke længere.',
    noReturnAddress: 'Der blev ikke angivet nogen returadresse.',
    returnToShop: 'Tilbage til butikken',
  },
};

/** The texts of the page in a PaymentGateLanguage (English for none, or one outside the list). */
export function paymentTexts(language: LanguageCode | null | undefined): PaymentTexts {
  return (language !== null && language !== undefined ? TEXTS[language] : undefined) ?? ENGLISH;
}
