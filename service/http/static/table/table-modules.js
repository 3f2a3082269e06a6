// Every variant's table module, by variant id: all the viewer knows of a variant is in its module
// table/variants/<variant id>.js. tests/unit/views/test_viewer_modules.py fails when a variant
// the service hosts has no module or is missing here; a variant still missing (a newer server)
// gets the generic table, which shows its public facts as they come.
//
// A module exports, each optional but `center`:
//   center(view, ctx)           the middle of the table: a list of nodes
//   badges(view, seat, ctx)     short marks beside a seat's name ("dealer")
//   seatLine(view, seat, ctx)   nodes after a seat's score
//   actingWords(view, seat, ctx) what a seat in `to_act` is awaited for (default "to act")
//   scoreUnit                   the unit of `scores` (default "points"; "" for none)
//   rankOrder, suitsMatter      how a hand shown on the table is sorted (table/parts/seat-hand.js)
//   ending(view, ctx)           how a game that ended by the variant's own rules ended, in a
//                               sentence (table/parts/ending.js words forfeits and cancellations)
//   describe(event, who)        one of the variant's own events in a sentence, or null
//                               (watch/events.js words the events every variant shares)
//   moves                       words for the variant's commands, by command type (play.js):
//     label(command, view)      a button's words
//     primary                   the button is the move to make (drawn prominently)
//     hint                      for commands naming one `card`: how clicking a card plays
//     choosing(card)            words before the buttons when several commands name one card
//     group(command)            the heading a listed several-card command is grouped under
//     toPick                    what a choice form's entries are ("cards to pass")
//   commandsForSelection(selected, commands)
//                               the listed several-card commands the selected cards make
//                               (default: those with exactly these cards)

import * as genericTable from "./generic-table.js";
import * as cancellationHearts from "./variants/cancellation-hearts.js";
import * as doubleHeartbeat from "./variants/double-heartbeat.js";
import * as heartbeat from "./variants/heartbeat.js";
import * as oneUpOneDown from "./variants/one-up-one-down.js";
import * as openHand from "./variants/open-hand.js";

const TABLE_MODULES = {
  "cancellation-hearts": cancellationHearts,
  "double-heartbeat": doubleHeartbeat,
  "heartbeat": heartbeat,
  "one-up-one-down": oneUpOneDown,
  "open-hand": openHand,
};

export function tableModule(variant) {
  return Object.hasOwn(TABLE_MODULES, variant) ? TABLE_MODULES[variant] : genericTable;
}
