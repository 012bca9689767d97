// a helper beside the lab file
#pragma once
